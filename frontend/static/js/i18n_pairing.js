// @ts-check
// i18n_pairing.js: the Quick pairing panel's strings (merged into i18n.js's tables).

export const PAIRING_STRINGS = {
  en: {
    'pair.title': 'Quick pairing',
    'pair.rated': 'Rated',
    'pair.rated.account': 'Rated games are played between accounts: sign up or log in.',
    'pair.rating': 'Your rating here: {rating}',
    'pair.rating.help': 'Pairing looks for opponents near your rating in this rule and speed (? while provisional).',
    'pair.seek': 'Find an opponent',
    'pair.cancel': 'Cancel',
    'pair.waiting': 'Looking for an opponent… {time}',
    'pair.ai': 'Play the AI instead ({level})',
    'level.rated': '{level}, rating {rating}',
    'seek.ended.replaced': 'You are looking for a game in another tab.',
    'seek.ended.expired': 'The search was interrupted; try again.',
    'seek.ended.match_failed': 'An opponent was found but the game could not be set up; try again.',
  },
  zh: {
    'pair.title': '快速匹配',
    'pair.rated': '计分',
    'pair.rated.account': '计分对局只在注册用户之间进行：请注册或登录。',
    'pair.rating': '你在此组的等级分：{rating}',
    'pair.rating.help': '匹配会在此规则与速度下寻找等级分与你接近的对手（带 ? 表示尚未稳定）。',
    'pair.seek': '寻找对手',
    'pair.cancel': '取消',
    'pair.waiting': '正在寻找对手… {time}',
    'pair.ai': '改为与 AI 对弈（{level}）',
    'level.rated': '{level}，等级分 {rating}',
    'seek.ended.replaced': '你正在另一个标签页中匹配。',
    'seek.ended.expired': '匹配已中断，请重试。',
    'seek.ended.match_failed': '已找到对手，但对局未能创建，请重试。',
  },
};

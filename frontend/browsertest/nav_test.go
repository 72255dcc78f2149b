package browsertest

import (
	"fmt"
	"testing"
	"time"

	cd "github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// tap scrolls the element matching sel into view and taps its centre with the mouse, after
// checking that the element is what a finger there would hit (visible, not covered).
func tap(t *testing.T, p *Page, sel string) {
	t.Helper()
	xy := Eval[[]float64](p, fmt.Sprintf(`(() => {
		const el = document.querySelector(%q); if (!el) return [];
		el.scrollIntoView({block: 'center'});
		const r = el.getBoundingClientRect(); const x = r.left + r.width / 2, y = r.top + r.height / 2;
		const hit = document.elementFromPoint(x, y);
		return hit && (hit === el || el.contains(hit)) ? [x, y] : [];
	})()`, sel))
	require.Len(t, xy, 2, "%s is visible and not covered", sel)
	p.Do("tap "+sel, cd.MouseClickXY(xy[0], xy[1]))
}

func TestPhoneReachesTheStudyPagesFromTheLobby(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "phone-nav")
	p.Viewport(360, 740)
	for _, tc := range []struct {
		lang, learn, puzzles string
	}{
		{lang: "en", learn: "Learn", puzzles: "Puzzles"},
		{lang: "zh-CN", learn: "学习", puzzles: "习题"},
	} {
		p.Open("/")
		if Eval[string](p, `document.documentElement.lang`) != tc.lang {
			p.Click("#lang-toggle")
		}
		require.Equal(t, tc.lang, Eval[string](p, `document.documentElement.lang`))
		require.Equal(t, "none", Eval[string](p, `getComputedStyle(document.querySelector('.topnav > a[href="/puzzles"]')).display`),
			"the top bar has no room for the page links at 360 px")
		require.Equal(t, []string{tc.learn, tc.puzzles}, Eval[[]string](p,
			`['/learn', '/puzzles'].map((href) => document.querySelector('.hero-links a[href="' + href + '"]').textContent)`))

		tap(t, p, `.hero-links a[href="/puzzles"]`)
		p.Wait("the puzzle page", `location.pathname.startsWith('/puzzles') && window.__puzzle && __puzzle.state() && __puzzle.state().puzzle`, 30*time.Second)
		require.LessOrEqual(t, Eval[int](p, `document.documentElement.scrollWidth - document.documentElement.clientWidth`), 0,
			"no horizontal scrolling on the puzzle page at 360 px (%s)", tc.lang)

		tap(t, p, `.topbar a.brand`)
		p.Wait("the lobby", `location.pathname === '/' && document.querySelector('.hero-links') !== null`, 15*time.Second)
		require.LessOrEqual(t, Eval[int](p, `document.documentElement.scrollWidth - document.documentElement.clientWidth`), 0,
			"no horizontal scrolling in the lobby at 360 px (%s)", tc.lang)
		tap(t, p, `.hero-links a[href="/learn"]`)
		p.Wait("the learn page", `location.pathname === '/learn' && document.querySelector('#learn-moves') !== null`, 15*time.Second)
	}
}

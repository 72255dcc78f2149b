package engine

// generatedVCF are VCF positions printed by TestGenerateVCF (games between noisy
// novice players; mateIn is the shortest VCF length found by iterative deepening).
var generatedVCF = []tactic{
	{name: "generated vcf 15", rules: []Rule{Freestyle}, black: "h8 k10 g6 f11 i10 l9 j7 k8 l7 l8 j6 j9", white: "i8 k9 h9 e11 j10 k6 k5 i6 m6 l6 m7 h11", toMove: Black, mateIn: 15},
	{name: "generated vcf 11", rules: []Rule{Freestyle}, black: "h8 k10 g6 f11 i10 l9 j7 k8 l7 l8 j6 j9 j8 n8", white: "i8 k9 h9 e11 j10 k6 k5 i6 m6 l6 m7 h11 j5 m8", toMove: Black, mateIn: 11},
	{name: "generated vcf 7", rules: []Rule{Freestyle}, black: "h8 k10 g6 f11 i10 l9 j7 k8 l7 l8 j6 j9 j8 n8 l10 m10", white: "i8 k9 h9 e11 j10 k6 k5 i6 m6 l6 m7 h11 j5 m8 l11 n11", toMove: Black, mateIn: 7},
	{name: "generated vcf 3", rules: []Rule{Freestyle}, black: "h8 k10 g6 f11 i10 l9 j7 k8 l7 l8 j6 j9 j8 n8 l10 m10 n10 m9", white: "i8 k9 h9 e11 j10 k6 k5 i6 m6 l6 m7 h11 j5 m8 l11 n11 o10 k7", toMove: Black, mateIn: 3},
	{name: "generated vcf 3", rules: []Rule{Standard}, black: "h8 k10 h9 j11 g6 g7 i10", white: "i8 k9 h11 h10 f7 f9 f6", toMove: Black, mateIn: 3},
	{name: "generated vcf 15", rules: []Rule{Standard}, black: "h8 e8 i6 i7 f7 d6 g9 k5 i5 i3 e7 h7 h9 g4 h5 f9 d10 d8 i9 f3 j5 k4 d9 d11 c10 i10 j8 m4 h12 c5 d2 e4 d4 c8", white: "f6 g8 e6 d5 g6 j7 f10 j6 i8 i4 f8 g7 g5 h10 h6 e9 g11 g10 j9 e2 l5 l3 d7 d12 b11 j10 k6 i13 f4 e3 e5 c3 b9 b8", toMove: Black, mateIn: 15},
	{name: "generated vcf 9", rules: []Rule{Standard}, black: "h8 e8 i6 i7 f7 d6 g9 k5 i5 i3 e7 h7 h9 g4 h5 f9 d10 d8 i9 f3 j5 k4 d9 d11 c10 i10 j8 m4 h12 c5 d2 e4 d4 c8 b4 c4 c7", white: "f6 g8 e6 d5 g6 j7 f10 j6 i8 i4 f8 g7 g5 h10 h6 e9 g11 g10 j9 e2 l5 l3 d7 d12 b11 j10 k6 i13 f4 e3 e5 c3 b9 b8 a3 a4 c6", toMove: Black, mateIn: 9},
	{name: "generated vcf 5", rules: []Rule{Standard}, black: "h8 e8 i6 i7 f7 d6 g9 k5 i5 i3 e7 h7 h9 g4 h5 f9 d10 d8 i9 f3 j5 k4 d9 d11 c10 i10 j8 m4 h12 c5 d2 e4 d4 c8 b4 c4 c7 c9 b10", white: "f6 g8 e6 d5 g6 j7 f10 j6 i8 i4 f8 g7 g5 h10 h6 e9 g11 g10 j9 e2 l5 l3 d7 d12 b11 j10 k6 i13 f4 e3 e5 c3 b9 b8 a3 a4 c6 c11 a11", toMove: Black, mateIn: 5},
	{name: "generated vcf 9 (white)", rules: []Rule{Renju}, black: "h8 k10 g6 i6 h6 h5 h4 j7 l9 h3 k5 h11 g8", white: "i8 k9 i7 k6 f6 h9 h7 g4 k8 h2 i10 f7", toMove: White, mateIn: 9},
	{name: "generated vcf 5 (white)", rules: []Rule{Renju}, black: "h8 k10 g6 i6 h6 h5 h4 j7 l9 h3 k5 h11 g8 g7 i11 j9", white: "i8 k9 i7 k6 f6 h9 h7 g4 k8 h2 i10 f7 e7 i9 g9", toMove: White, mateIn: 5},
	{name: "generated vcf 11 (black)", rules: []Rule{Renju}, black: "h8 i8 h9 i9 j9 k9 k8 g7 f6 k10 k6 l11 l7 m6 j5 h3 l6 i6 i5 l4 f8 o5 h10 f5 f4 e8 g4 e4 c4 d3 g12", white: "f10 j8 j7 k5 g9 l9 h7 j10 e5 k11 k7 m12 i10 n5 m8 i4 n6 j6 i7 l5 m5 g10 h6 g5 f7 g8 e6 d5 d4 g11 g6", toMove: Black, mateIn: 11},
	{name: "generated vcf 15 (white)", rules: []Rule{Renju}, black: "h8 g5 e11 k4 i4 e5 j6 i7 k5 h9 g6 f9 g8 m4 g13 n9 f3 i6 j8 l2 o8 l7 h11", white: "h7 g9 j5 k6 j4 j7 g7 i8 l4 g10 h5 g11 l5 g12 m8 g4 k8 l8 l3 n8 i10 j9", toMove: White, mateIn: 15},
}

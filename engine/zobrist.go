package engine

// zobristKeys holds one random key per colour and point index. It is filled once at
// package initialisation from a fixed seed and never written afterwards, so it is safe
// to share between any number of engines.
var zobristKeys = func() (keys [2][MaxSize * MaxSize]uint64) {
	s := uint64(0x9E3779B97F4A7C15)
	for c := range keys {
		for i := range keys[c] {
			// splitmix64
			s += 0x9E3779B97F4A7C15
			z := s
			z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
			z = (z ^ (z >> 27)) * 0x94D049BB133111EB
			keys[c][i] = z ^ (z >> 31)
		}
	}
	return keys
}()

// zobristKey returns the key of a stone of colour c (Black or White) at index i.
func zobristKey(c Color, i int) uint64 {
	return zobristKeys[c-1][i]
}

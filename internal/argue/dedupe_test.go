package argue

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRepeatedAttacksStayCompact: attacks added again and again (a file
// repeating its lines) are held once, not once per line: memory follows
// the distinct attacks. And the relation read back is the same.
func TestRepeatedAttacksStayCompact(t *testing.T) {
	f := NewNumbered(1000)
	rng := rand.New(rand.NewPCG(1, 2))
	type pair struct{ a, b int }
	distinct := map[pair]bool{}
	for range 3000 {
		distinct[pair{rng.IntN(1000), rng.IntN(1000)}] = true
	}
	keys := make([]pair, 0, len(distinct))
	for p := range distinct {
		keys = append(keys, p)
	}
	most := 0
	for i := range 3_000_000 {
		p := keys[i%len(keys)]
		if err := f.AddAttack(p.a, p.b); err != nil {
			t.Fatal(err)
		}
		most = max(most, cap(f.pending))
	}
	// Two elements per attack, held until they double past compactMin.
	if limit := 2 * compactMin; most > limit {
		t.Errorf("3,000,000 additions of %d attacks held up to %d pair elements, want at most %d", len(keys), most, limit)
	}
	if f.NumAttacks() != len(keys) {
		t.Errorf("%d attacks, want %d", f.NumAttacks(), len(keys))
	}
	for _, p := range keys {
		if !f.Attacked(p.a, p.b) {
			t.Fatalf("attack %v lost", p)
		}
	}
	for a := range 1000 {
		for _, b := range f.Attacks(a) {
			if !distinct[pair{a, b}] {
				t.Fatalf("attack %d -> %d never added", a, b)
			}
		}
		if !slices.IsSorted(f.Attackers(a)) {
			t.Fatalf("attackers of %d unsorted", a)
		}
	}
}

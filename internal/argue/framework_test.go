package argue_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/parleyhq/parley/internal/argue"
)

// TestFrameworkChangesAfterReads: the attack arrays are built on the first
// read; attacks and arguments added afterwards must show up in the next
// read together with the earlier ones, duplicates counted once.
func TestFrameworkChangesAfterReads(t *testing.T) {
	f := argue.New()
	for _, n := range []string{"a", "b", "c"} {
		if _, err := f.AddArgument(n); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(f.AddAttackNames("a", "b"))
	must(f.AddAttackNames("a", "b"))
	if f.NumAttacks() != 1 || !f.Attacked(0, 1) || f.Attacked(1, 0) {
		t.Fatalf("after a→b twice: %d attacks, a→b %v, b→a %v", f.NumAttacks(), f.Attacked(0, 1), f.Attacked(1, 0))
	}
	must(f.AddAttackNames("c", "b"))
	d, err := f.AddArgument("d")
	must(err)
	must(f.AddAttack(d, 0))
	must(f.AddAttackNames("c", "b"))
	if got := f.Attackers(1); !slices.Equal(got, []int{0, 2}) {
		t.Errorf("attackers of b = %v, want [0 2]", got)
	}
	if got := f.Attacks(d); !slices.Equal(got, []int{0}) {
		t.Errorf("attacks of d = %v, want [0]", got)
	}
	if f.NumAttacks() != 3 || f.Len() != 4 {
		t.Errorf("%d attacks over %d arguments, want 3 over 4", f.NumAttacks(), f.Len())
	}
	if f.Attacked(7, 0) || f.Attacked(0, -1) {
		t.Error("an argument out of range is attacked")
	}
	// c and d are unattacked, hence IN; they attack b and a, which are OUT.
	if g := f.Grounded(); !slices.Equal(g, argue.Extension{2, 3}) {
		t.Errorf("grounded = %v, want [2 3]", g)
	}
}

// TestFrameworkConcurrentFirstRead: concurrent readers may race to build
// the arrays; each must see the whole relation (run with -race).
func TestFrameworkConcurrentFirstRead(t *testing.T) {
	f := argue.NewNumbered(1000)
	for i := range 999 {
		if err := f.AddAttack(i, i+1); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if n := f.NumAttacks(); n != 999 {
				t.Errorf("NumAttacks = %d, want 999", n)
			}
			if g := f.Grounded(); len(g) != 500 {
				t.Errorf("grounded has %d arguments, want 500", len(g))
			}
		})
	}
	wg.Wait()
}

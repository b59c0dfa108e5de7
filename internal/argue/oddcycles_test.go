package argue_test

import (
	"context"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/argue"
)

// TestChainOfOddCycles asks DC-STG on a framework of the campaign's where
// the search by maximal ranges alone did not answer in 20 s (μ-toksia: 3 ms
// for argument 133, over a minute for 115; see docs/benchmarks.md), and
// checks the certificates by the definition: conflict-free, with the
// argument, and no conflict-free set with a larger range.
func TestChainOfOddCycles(t *testing.T) {
	af := loadAF(t, "testdata/sccchain3_n169.af")
	// A bound, not a speed check: without it the old search would hang
	// the suite rather than fail.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, name := range []string{"133", "115"} {
		a, ok := af.Index(name)
		if !ok {
			t.Fatalf("no argument %s", name)
		}
		yes, w, err := af.CredulousWitness(ctx, argue.Stage, a)
		if err != nil || !yes {
			t.Fatalf("DC-STG %s: %v, %v; want YES", name, yes, err)
		}
		maximal, err := argue.RangeIsMaximal(ctx, af, argue.Stage, w)
		if err != nil {
			t.Fatal(err)
		}
		if !w.Contains(a) || !af.IsConflictFree(w) || !maximal {
			t.Errorf("DC-STG %s: certificate %v is not a stage extension with the argument (contains %v, conflict-free %v, range maximal %v)",
				name, af.String(w), w.Contains(a), af.IsConflictFree(w), maximal)
		}
	}
}

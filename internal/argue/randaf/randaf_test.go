package randaf

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/argue"
	"github.com/parleyhq/parley/internal/argue/iccma"
)

func attacks(af *argue.Framework) [][2]int {
	var out [][2]int
	for a := range af.Len() {
		for _, b := range af.Attacks(a) {
			out = append(out, [2]int{a, b})
		}
	}
	return out
}

// TestShapes checks what each generator promises: ER's attack count,
// Grid's neighbour-only attacks, BA's connectedness (every argument but
// the first joins at least one attack), and that a seed fixes the
// framework while another seed changes it.
func TestShapes(t *testing.T) {
	if got, want := ER(500, 2.5, 3).NumAttacks(), 1250; got != want {
		t.Errorf("ER(500, 2.5): %d attacks, want %d", got, want)
	}
	g := Grid(7, 5, 0.6, 3)
	for _, e := range attacks(g) {
		ax, ay, bx, by := e[0]%7, e[0]/7, e[1]%7, e[1]/7
		if d := max(ax-bx, bx-ax) + max(ay-by, by-ay); d != 1 {
			t.Errorf("Grid: attack %v joins cells %d apart", e, d)
		}
	}
	ba := BA(200, 2, 3)
	for a := 1; a < ba.Len(); a++ {
		if len(ba.Attacks(a))+len(ba.Attackers(a)) == 0 {
			t.Errorf("BA: argument %d takes part in no attack", a)
		}
	}
	sa := SelfAttacks(400, 2, 0.5, 3)
	self := 0
	for a := range sa.Len() {
		if sa.Attacked(a, a) {
			self++
		}
	}
	if got, want := sa.NumAttacks()-self, 800; got != want {
		t.Errorf("SelfAttacks(400, 2): %d attacks besides self-attacks, want %d", got, want)
	}
	if self < 150 || self > 250 {
		t.Errorf("SelfAttacks(400, 2, 0.5): %d self-attacks, want about 200", self)
	}
	ws := WattsStrogatz(100, 4, 0, 3)
	for _, e := range attacks(ws) {
		if d := (e[1] - e[0] + 100) % 100; d != 1 && d != 2 && d != 98 && d != 99 {
			t.Errorf("WattsStrogatz without rewiring: attack %v is not between ring neighbours", e)
		}
	}
	sc := SCCChain(10, 4, 0.2, 3)
	for _, e := range attacks(sc) {
		if e[1]/4 != e[0]/4 && e[1]/4 != e[0]/4+1 {
			t.Errorf("SCCChain: attack %v goes from block %d to block %d", e, e[0]/4, e[1]/4)
		}
	}
	for name, gen := range map[string]func(uint64) *argue.Framework{
		"ER":            func(s uint64) *argue.Framework { return ER(300, 3, s) },
		"BA":            func(s uint64) *argue.Framework { return BA(300, 2, s) },
		"Grid":          func(s uint64) *argue.Framework { return Grid(15, 15, 0.6, s) },
		"SelfAttacks":   func(s uint64) *argue.Framework { return SelfAttacks(300, 3, 0.5, s) },
		"WattsStrogatz": func(s uint64) *argue.Framework { return WattsStrogatz(300, 4, 0.2, s) },
		"SCCChain":      func(s uint64) *argue.Framework { return SCCChain(50, 4, 0.2, s) },
	} {
		if !slices.Equal(attacks(gen(1)), attacks(gen(1))) {
			t.Errorf("%s: the same seed gave different frameworks", name)
		}
		if slices.Equal(attacks(gen(1)), attacks(gen(2))) {
			t.Errorf("%s: seeds 1 and 2 gave the same framework", name)
		}
	}
}

// TestWrite checks that the written files read back as the generated
// frameworks and that the instance names are unique file names.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	ins := Instances()[:3]
	if err := Write(dir, ins); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, in := range Instances() {
		if seen[in.Name] {
			t.Errorf("instance name %s twice", in.Name)
		}
		seen[in.Name] = true
	}
	for _, in := range ins {
		f, err := os.Open(in.Path(dir))
		if err != nil {
			t.Fatal(err)
		}
		back, err := iccma.ParseI23(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", in.Name, err)
		}
		if back.Len() != in.AF.Len() || !slices.Equal(attacks(back), attacks(in.AF)) {
			t.Errorf("%s: read back %d arguments, %d attacks; generated %d, %d",
				in.Name, back.Len(), back.NumAttacks(), in.AF.Len(), in.AF.NumAttacks())
		}
	}
}

func TestQueryArgs(t *testing.T) {
	if got := QueryArgs(10, "DS-PR"); !slices.Equal(got, []int{0, 4, 9}) {
		t.Errorf("QueryArgs(10, DS-PR) = %v", got)
	}
	if got := QueryArgs(10, "SE-ST"); !slices.Equal(got, []int{-1}) {
		t.Errorf("QueryArgs(10, SE-ST) = %v", got)
	}
}

// TestDense checks what Dense promises: names that say each framework's
// size and density and collide with no other instance, and cores (what
// the grounded labelling leaves undecided) of most of each framework, so
// that its queries are long SAT searches rather than settled by the
// grounded reduction.
func TestDense(t *testing.T) {
	seen := map[string]bool{}
	for _, in := range Instances() {
		seen[in.Name] = true
	}
	for _, in := range Dense() {
		if seen[in.Name] {
			t.Errorf("instance name %s twice", in.Name)
		}
		seen[in.Name] = true
		var n int
		var d float64
		var s uint64
		if _, err := fmt.Sscanf(strings.ReplaceAll(in.Name, "_", " "), "er n%d d%g s%d", &n, &d, &s); err != nil {
			t.Errorf("%s: name does not read as er_nN_dD_sS: %v", in.Name, err)
			continue
		}
		if in.AF.Len() != n || in.AF.NumAttacks() != int(math.Round(float64(n)*d)) {
			t.Errorf("%s: %d arguments, %d attacks; the name says %d and %g attacks an argument", in.Name, in.AF.Len(), in.AF.NumAttacks(), n, d)
		}
		undec := 0
		for _, l := range in.AF.GroundedLabelling() {
			if l == argue.Undec {
				undec++
			}
		}
		if undec < n/2 {
			t.Errorf("%s: the grounded labelling leaves %d of %d arguments undecided, want at least half", in.Name, undec, n)
		}
	}
}

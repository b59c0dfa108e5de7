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
		"BAMutual":      func(s uint64) *argue.Framework { return BAMutual(300, 2, 0.4, s) },
		"BigSCC":        func(s uint64) *argue.Framework { return BigSCC(300, 1, s) },
		"FarAhead":      func(s uint64) *argue.Framework { return FarAhead(50, 4, 0.2, 2, s) },
		"DenseSelf":     func(s uint64) *argue.Framework { return DenseSelf(60, 0.5, 0.5, s) },
		"Isolated":      func(s uint64) *argue.Framework { return Isolated(300, 2, 0.5, s) },
	} {
		if !slices.Equal(attacks(gen(1)), attacks(gen(1))) {
			t.Errorf("%s: the same seed gave different frameworks", name)
		}
		if slices.Equal(attacks(gen(1)), attacks(gen(2))) {
			t.Errorf("%s: seeds 1 and 2 gave the same framework", name)
		}
	}
}

// reaches reports whether every argument is reachable from argument 0
// along attacks (forward) or against them (backward).
func reaches(af *argue.Framework, backward bool) bool {
	seen := make([]bool, af.Len())
	seen[0] = true
	stack, count := []int{0}, 1
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		next := af.Attacks(a)
		if backward {
			next = af.Attackers(a)
		}
		for _, b := range next {
			if !seen[b] {
				seen[b] = true
				count++
				stack = append(stack, b)
			}
		}
	}
	return count == af.Len()
}

// TestFamilies checks what each generator of the families promises:
// BAMutual's mutual share and connectedness, BigSCC's single strongly
// connected component, FarAhead's attacks going forward only and some of
// them past the next part, DenseSelf's densities, Isolated's arguments in
// no attack; and that Families' names are unique among all instance sets
// and say each framework's size.
func TestFamilies(t *testing.T) {
	ba := BAMutual(400, 2, 0.4, 3)
	mutual := 0
	for _, e := range attacks(ba) {
		if ba.Attacked(e[1], e[0]) {
			mutual++
		}
	}
	// 797 links (k=2 from the third argument on), 40% of them both ways.
	if share := float64(mutual) / 2 / float64(ba.NumAttacks()-mutual/2); share < 0.3 || share > 0.5 {
		t.Errorf("BAMutual(400, 2, 0.4): %.2f of the links mutual, want about 0.4", share)
	}
	for a := 1; a < ba.Len(); a++ {
		if len(ba.Attacks(a))+len(ba.Attackers(a)) == 0 {
			t.Errorf("BAMutual: argument %d takes part in no attack", a)
		}
	}
	for _, n := range []int{1, 2, 50} {
		if g := BigSCC(n, 1, 3); !reaches(g, false) || !reaches(g, true) {
			t.Errorf("BigSCC(%d): not one strongly connected component", n)
		}
	}
	fa := FarAhead(40, 4, 0.2, 2, 3)
	far := 0
	for _, e := range attacks(fa) {
		switch from, to := e[0]/4, e[1]/4; {
		case to < from:
			t.Errorf("FarAhead: attack %v goes back from part %d to part %d", e, from, to)
		case to > from+1:
			far++
		}
	}
	if far < 20 {
		t.Errorf("FarAhead(40 parts): %d attacks past the next part, want at least one a part for most", far)
	}
	ds := DenseSelf(100, 0.5, 0.6, 3)
	self := 0
	for a := range ds.Len() {
		if ds.Attacked(a, a) {
			self++
		}
	}
	if other := ds.NumAttacks() - self; other < 4500 || other > 5400 || self < 45 || self > 75 {
		t.Errorf("DenseSelf(100, 0.5, 0.6): %d attacks between distinct arguments (want about 4950), %d self-attacks (about 60)", other, self)
	}
	iso := Isolated(400, 2, 0.5, 3)
	alone := 0
	for a := range iso.Len() {
		if len(iso.Attacks(a))+len(iso.Attackers(a)) == 0 {
			alone++
		}
	}
	if alone < 200 || alone > 260 {
		t.Errorf("Isolated(400, 2, 0.5): %d arguments in no attack, want 200 and a few the attacks missed", alone)
	}
	if got := Isolated(5, 2, 1, 3); got.NumAttacks() != 0 {
		t.Errorf("Isolated(5, 2, 1): %d attacks, want none", got.NumAttacks())
	}
	seen := map[string]bool{}
	for _, in := range slices.Concat(Instances(), Dense(), Chains()) {
		seen[in.Name] = true
	}
	for _, in := range Families() {
		if seen[in.Name] {
			t.Errorf("instance name %s twice", in.Name)
		}
		seen[in.Name] = true
		var n int
		if i := strings.Index(in.Name, "_n"); i < 0 || func() bool { _, err := fmt.Sscanf(in.Name[i:], "_n%d_", &n); return err != nil }() {
			t.Errorf("%s: name does not say the size as _nN_", in.Name)
			continue
		}
		if got := in.AF.Len(); got < n-3 || got > n+3 {
			t.Errorf("%s: %d arguments, the name says %d", in.Name, got, n)
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

// Package randaf generates random argumentation frameworks of the shapes
// that leave a hard core after the grounded reduction, from fixed seeds,
// so that every run (the in-process benchmark of internal/argue, its
// before/after, and peerbench's whole-process comparison with μ-toksia)
// sees the same instances without keeping megabytes of testdata. The ICCMA
// sample set in testdata is dominated by instances the grounded labelling
// or one stable model settles; these are not.
package randaf

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/parleyhq/parley/internal/argue"
	"github.com/parleyhq/parley/internal/argue/iccma"
)

// ER is an Erdős–Rényi-style digraph: round(n·d) attacks between
// uniformly drawn arguments (self-attacks included, duplicates redrawn),
// so d is the mean number of attacks per argument.
func ER(n int, d float64, seed uint64) *argue.Framework {
	r := rand.New(rand.NewPCG(seed, 0xe5))
	af := argue.NewNumbered(n)
	seen := map[[2]int]bool{}
	for m := int(float64(n)*d + 0.5); len(seen) < m; {
		e := [2]int{r.IntN(n), r.IntN(n)}
		if !seen[e] {
			seen[e] = true
			attack(af, e[0], e[1])
		}
	}
	return af
}

// BA is Barabási–Albert-like: each new argument attacks or is attacked by
// (a fair coin) k earlier arguments drawn in proportion to their degree,
// so a few hubs take part in many attacks.
func BA(n, k int, seed uint64) *argue.Framework {
	r := rand.New(rand.NewPCG(seed, 0xba))
	af := argue.NewNumbered(n)
	var ends []int // each argument once per attack it takes part in
	for i := 1; i < n; i++ {
		picked := map[int]bool{}
		for len(picked) < min(k, i) {
			j := r.IntN(i)
			if len(ends) > 0 && r.IntN(4) != 0 { // mostly by degree, sometimes uniform
				j = ends[r.IntN(len(ends))]
			}
			if picked[j] {
				continue
			}
			picked[j] = true
			if r.IntN(2) == 0 {
				attack(af, i, j)
			} else {
				attack(af, j, i)
			}
			ends = append(ends, i, j)
		}
	}
	return af
}

// Grid is a w×h grid in which each of the two directions between
// neighbours is an attack with probability p: many short even and odd
// cycles, the structure of the grid families of ICCMA.
func Grid(w, h int, p float64, seed uint64) *argue.Framework {
	r := rand.New(rand.NewPCG(seed, 0x9d))
	af := argue.NewNumbered(w * h)
	for y := range h {
		for x := range w {
			a := y*w + x
			for _, b := range []int{a + 1, a + w} {
				if (b == a+1 && x+1 == w) || b >= w*h {
					continue
				}
				if r.Float64() < p {
					attack(af, a, b)
				}
				if r.Float64() < p {
					attack(af, b, a)
				}
			}
		}
	}
	return af
}

// SelfAttacks is ER(n, d) without self-attacks plus a self-attack on each
// argument with probability pSelf. A self-attacking argument must be
// attacked by a stable extension, so with many of them there is rarely
// one, and semi-stable and stage reasoning go to the range-maximal search
// that a stable extension otherwise settles (argue's Credulous took over
// a minute on DC-STG here where μ-toksia needs 0.2 s).
func SelfAttacks(n int, d, pSelf float64, seed uint64) *argue.Framework {
	r := rand.New(rand.NewPCG(seed, 0x5e))
	af := argue.NewNumbered(n)
	seen := map[[2]int]bool{}
	for m := int(float64(n)*d + 0.5); len(seen) < m; {
		e := [2]int{r.IntN(n), r.IntN(n)}
		if e[0] != e[1] && !seen[e] {
			seen[e] = true
			attack(af, e[0], e[1])
		}
	}
	for a := range n {
		if r.Float64() < pSelf {
			attack(af, a, a)
		}
	}
	return af
}

// WattsStrogatz is a ring on which each argument is joined to its k/2
// nearest successors, each link rewired to a uniform argument with
// probability beta, and each link one attack either way or two (mutual):
// mostly local, with a few long-range attacks, as in small-world graphs.
func WattsStrogatz(n, k int, beta float64, seed uint64) *argue.Framework {
	r := rand.New(rand.NewPCG(seed, 0x35))
	af := argue.NewNumbered(n)
	for a := range n {
		for d := 1; d <= k/2; d++ {
			b := (a + d) % n
			if r.Float64() < beta {
				b = r.IntN(n)
			}
			if a == b {
				continue
			}
			switch r.IntN(3) {
			case 0:
				attack(af, a, b)
			case 1:
				attack(af, b, a)
			default:
				attack(af, a, b)
				attack(af, b, a)
			}
		}
	}
	return af
}

// SCCChain is k blocks of size arguments in a row, each block a cycle plus
// attacks inside it with probability p, and a few attacks from each block
// to the next: a chain of strongly connected components, where each
// component's status depends on the ones before it.
func SCCChain(k, size int, p float64, seed uint64) *argue.Framework {
	r := rand.New(rand.NewPCG(seed, 0xcc))
	af := argue.NewNumbered(k * size)
	for b := range k {
		off := b * size
		cycleBlock(af, r, off, size, p)
		if b+1 < k {
			intoNext(af, r, off, size)
		}
	}
	return af
}

// cycleBlock makes the size arguments from off a cycle, with each ordered
// pair (self-attacks included) attacking with probability p: one block of
// SCCChain and FarAhead.
func cycleBlock(af *argue.Framework, r *rand.Rand, off, size int, p float64) {
	for i := range size {
		attack(af, off+i, off+(i+1)%size)
		for j := range size {
			if r.Float64() < p {
				attack(af, off+i, off+j)
			}
		}
	}
}

// intoNext adds 1–3 attacks from the block at off into the next one.
func intoNext(af *argue.Framework, r *rand.Rand, off, size int) {
	for range 1 + r.IntN(3) {
		attack(af, off+r.IntN(size), off+size+r.IntN(size))
	}
}

// BAMutual is Barabási–Albert preferential attachment (BA) in which each
// attack is made mutual with probability pMutual: hubs in many 2-cycles,
// so that the grounded labelling decides little and preferred reasoning
// meets many maximal admissible sets (the DS-PR loop over admissible sets
// went one set at a time here, docs/benchmarks.md "New generator
// families").
func BAMutual(n, k int, pMutual float64, seed uint64) *argue.Framework {
	r := rand.New(rand.NewPCG(seed, 0xb2))
	af := argue.NewNumbered(n)
	var ends []int // each argument once per attack it takes part in
	for i := 1; i < n; i++ {
		picked := map[int]bool{}
		for len(picked) < min(k, i) {
			j := r.IntN(i)
			if len(ends) > 0 && r.IntN(4) != 0 {
				j = ends[r.IntN(len(ends))]
			}
			if picked[j] {
				continue
			}
			picked[j] = true
			a, b := i, j
			if r.IntN(2) == 0 {
				a, b = j, i
			}
			attack(af, a, b)
			if r.Float64() < pMutual {
				attack(af, b, a)
			}
			ends = append(ends, i, j)
		}
	}
	return af
}

// BigSCC is one strongly connected component of n arguments: a cycle
// through them in a random order, plus round(n·d) attacks between uniform
// arguments (self-attacks among them). No decomposition into parts helps
// there; every query is one search over the whole framework.
func BigSCC(n int, d float64, seed uint64) *argue.Framework {
	r := rand.New(rand.NewPCG(seed, 0xb5))
	af := argue.NewNumbered(n)
	order := r.Perm(n)
	for i, a := range order {
		if n > 1 {
			attack(af, a, order[(i+1)%n])
		}
	}
	for range int(float64(n)*d + 0.5) {
		attack(af, r.IntN(n), r.IntN(n))
	}
	return af
}

// FarAhead is SCCChain with long-range attacks: k parts of size arguments,
// each a cycle with attacks inside it with probability p, 1–3 attacks into
// the next part, and 1–far attacks from each part into any later part. The
// interfaces between parts are then wide, which makes the part-by-part
// programme give up and leaves chains of components to the SAT searches.
func FarAhead(k, size int, p float64, far int, seed uint64) *argue.Framework {
	r := rand.New(rand.NewPCG(seed, 0xfa))
	af := argue.NewNumbered(k * size)
	for b := range k {
		off := b * size
		cycleBlock(af, r, off, size, p)
		if b+1 >= k {
			continue
		}
		intoNext(af, r, off, size)
		for range 1 + r.IntN(max(far, 1)) {
			later := b + 1 + r.IntN(k-b-1)
			attack(af, off+r.IntN(size), later*size+r.IntN(size))
		}
	}
	return af
}

// DenseSelf attacks each ordered pair of distinct arguments with
// probability density and each argument itself with probability pSelf:
// dense frameworks (density 0.3–0.7) where most arguments attack
// themselves, so that stable extensions are rare, the range-maximal
// searches of semi-stable and stage semantics decide, and conflict-free
// sets are small.
func DenseSelf(n int, density, pSelf float64, seed uint64) *argue.Framework {
	r := rand.New(rand.NewPCG(seed, 0xd5))
	af := argue.NewNumbered(n)
	for a := range n {
		if r.Float64() < pSelf {
			attack(af, a, a)
		}
		for b := range n {
			if a != b && r.Float64() < density {
				attack(af, a, b)
			}
		}
	}
	return af
}

// Isolated is ER(m, d) over a random subset of m = n·(1−pIsolated)
// arguments (numbered among the others), the rest in no attack: arguments
// every complete extension holds, interleaved with a hard core, so that
// answers and certificates must carry them and renumbering around them
// must be right.
func Isolated(n int, d, pIsolated float64, seed uint64) *argue.Framework {
	r := rand.New(rand.NewPCG(seed, 0x15))
	af := argue.NewNumbered(n)
	m := int(float64(n)*(1-pIsolated) + 0.5)
	if m == 0 {
		return af
	}
	in := r.Perm(n)[:m]
	seen := map[[2]int]bool{}
	for want := min(int(float64(m)*d+0.5), m*m); len(seen) < want; {
		e := [2]int{in[r.IntN(m)], in[r.IntN(m)]}
		if !seen[e] {
			seen[e] = true
			attack(af, e[0], e[1])
		}
	}
	return af
}

// Family is one generator of the families beyond Instances, Dense and
// Chains, at a size: Families and the tests draw from it at any size
// and seed.
type Family struct {
	Name string // the family, e.g. ba_recip; an instance is named <Name>_n<N>_s<seed>
	Gen  func(n int, seed uint64) *argue.Framework
}

// FamilyGens are the generator families, with the parameters drawn from the
// seed where a family spans a range (as the differential run that found
// the DS-PR and DC/DS-STG cut-offs drew them, docs/benchmarks.md "New
// generator families").
func FamilyGens() []Family {
	pick := func(seed uint64, salt uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, salt)) }
	return []Family{
		{"ba_recip", func(n int, seed uint64) *argue.Framework {
			return BAMutual(n, 1+pick(seed, 1).IntN(3), 0.4, seed)
		}},
		{"ws", func(n int, seed uint64) *argue.Framework {
			r := pick(seed, 2)
			return WattsStrogatz(n, 2+2*r.IntN(3), 0.05+0.45*r.Float64(), seed)
		}},
		{"bigscc", func(n int, seed uint64) *argue.Framework {
			return BigSCC(n, 0.5+2.5*pick(seed, 3).Float64(), seed)
		}},
		{"farahead", func(n int, seed uint64) *argue.Framework {
			r := pick(seed, 4)
			size := 2 + r.IntN(4)
			return FarAhead(max((n+size/2)/size, 1), size, 0.3*r.Float64(), 2, seed)
		}},
		{"dense_self", func(n int, seed uint64) *argue.Framework {
			r := pick(seed, 5)
			return DenseSelf(n, 0.3+0.4*r.Float64(), 0.3+0.6*r.Float64(), seed)
		}},
		{"isolated", func(n int, seed uint64) *argue.Framework {
			return Isolated(n, 1.5+2*pick(seed, 6).Float64(), 0.5, seed)
		}},
	}
}

// Families are instances of each family of FamilyGens at a size where
// queries take milliseconds to seconds for both solvers (dense_self
// smaller: its attacks grow with the square of its size; bigscc larger: at
// 300 arguments both answer in start-up time, at 2,000 some queries in
// neither in 30 s), two seeds each.
// peerbench runs them with -families.
func Families() []Instance {
	var ins []Instance
	for _, f := range FamilyGens() {
		n := 600
		switch f.Name {
		case "dense_self":
			n = 150
		case "bigscc":
			n = 1000
		}
		for seed := uint64(1); seed <= 2; seed++ {
			ins = append(ins, Instance{Name: fmt.Sprintf("%s_n%d_s%d", f.Name, n, seed), AF: f.Gen(n, seed)})
		}
	}
	return ins
}

// attack adds a→b. The generators draw both ends below the framework's
// size, so an error here is a bug in the generator, not a condition a
// caller could handle.
func attack(af *argue.Framework, a, b int) {
	if err := af.AddAttack(a, b); err != nil {
		panic(fmt.Sprintf("randaf: generator drew an attack outside the framework: %v", err))
	}
}

// Instance is one named generated framework.
type Instance struct {
	Name string // shape, size and seed, e.g. er_n500_d4_s1; also the file's base name
	AF   *argue.Framework
}

// Instances are the benchmark's instances: cores of 100–1,300 arguments
// after the grounded reduction (er_*, grid_*), and a scale-free framework
// the reduction mostly settles (ba). Near the densities used here the
// core's size swings from nothing to half the framework with the seed, so
// the seeds (the _sN suffix) are ones that leave a core.
func Instances() []Instance {
	return []Instance{
		{"er_n200_d3_s1", ER(200, 3, 1)},
		{"er_n500_d4_s1", ER(500, 4, 1)},
		{"er_n1000_d3_s2", ER(1000, 3, 2)},
		{"er_n2000_d3_s1", ER(2000, 3, 1)},
		{"er_n5000_d2.5_s2", ER(5000, 2.5, 2)},
		{"ba_n3000_s1", BA(3000, 2, 1)},
		{"grid_n900_s1", Grid(30, 30, 0.6, 1)},
		{"grid_n3600_s1", Grid(60, 60, 0.6, 1)},
	}
}

// Dense are denser random frameworks (up to 2,000 arguments with 3.5–5
// attacks each) whose queries are single long SAT searches, taking seconds
// even for μ-toksia: there a CDCL's restart and clause-deletion policies
// decide, not the encodings or start-up (docs/benchmarks.md, "The SAT
// core's search"). peerbench runs them with -dense. At these densities
// nearly every seed leaves most of the framework in the core.
func Dense() []Instance {
	return []Instance{
		{"er_n600_d5_s1", ER(600, 5, 1)},
		{"er_n800_d4.5_s1", ER(800, 4.5, 1)},
		{"er_n1000_d3.5_s1", ER(1000, 3.5, 1)},
		{"er_n1000_d4_s1", ER(1000, 4, 1)},
		{"er_n1500_d3.5_s1", ER(1500, 3.5, 1)},
		{"er_n1500_d4_s1", ER(1500, 4, 1)},
		{"er_n1500_d4_s2", ER(1500, 4, 2)},
		{"er_n1500_d4_s3", ER(1500, 4, 3)},
		{"er_n2000_d3.5_s1", ER(2000, 3.5, 1)},
	}
}

// Chains are chains of small strongly connected components (SCCChain):
// parts of 2–5 arguments, about 100, 300 and 1,000 arguments in all, each
// as bare cycles (p=0) and with attacks inside the parts (p=0.3). They
// have exponentially many preferred and complete extensions, and the
// status of the last parts depends on every part before them, which is
// where SAT-based CEGAR searches go through extension after extension
// (docs/benchmarks.md, "Chains of strongly connected components").
// peerbench runs them with -chains.
func Chains() []Instance {
	var ins []Instance
	for _, p := range []float64{0, 0.3} {
		for _, size := range []int{2, 3, 4, 5} {
			for _, n := range []int{100, 300, 1000} {
				k := (n + size/2) / size
				ins = append(ins, Instance{
					Name: fmt.Sprintf("sccchain_n%d_c%d_p%g_s1", k*size, size, p),
					AF:   SCCChain(k, size, p, 1),
				})
			}
		}
	}
	return ins
}

// GoalTasks are the problems issue 13 sets its target on.
func GoalTasks() []string { return []string{"DC-CO", "DS-PR", "SE-PR", "SE-ST", "DS-ST"} }

// QueryArgs are the arguments (0-based indices) a DC/DS task on a
// framework of n arguments is asked about: the first, the middle and the
// last, so that both ends of the numbering (the generators' oldest and
// newest arguments) and one between are covered. An SE task takes no
// argument: the single entry -1.
func QueryArgs(n int, task string) []int {
	if strings.HasPrefix(task, "SE") {
		return []int{-1}
	}
	return []int{0, n/2 - 1, n - 1}
}

// WriteI23 writes af to path in ICCMA'23 format (arguments numbered from 1).
func WriteI23(path string, af *argue.Framework) error {
	var buf bytes.Buffer
	if err := iccma.WriteI23(&buf, af); err != nil {
		return fmt.Errorf("randaf: encode %s: %w", path, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("randaf: write the instance (is the directory writable?): %w", err)
	}
	return nil
}

// Path is where Write puts in under dir.
func (in Instance) Path(dir string) string { return filepath.Join(dir, in.Name+".af") }

// Write writes every instance to dir as <name>.af, creating dir if needed.
func Write(dir string, ins []Instance) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("randaf: create the instance directory: %w", err)
	}
	for _, in := range ins {
		if err := WriteI23(in.Path(dir), in.AF); err != nil {
			return err
		}
	}
	return nil
}

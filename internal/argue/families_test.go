package argue_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/argue"
	"github.com/parleyhq/parley/internal/argue/randaf"
)

// familiesN sets the size of TestFamiliesAgainstMuToksia's frameworks
// (0: 120 arguments, dense_self a third of it). Larger ones are for runs by
// hand: at 150–250 arguments some DC-STG queries on farahead frameworks
// are answered by neither solver in a minute.
var familiesN = flag.Int("families-n", 0, "TestFamiliesAgainstMuToksia: arguments per framework (default 120)")

// TestFamiliesAgainstBruteForce compares every semantics with the
// definitions on small frameworks of each generator family of randaf
// (Barabási–Albert with mutual attacks, Watts–Strogatz, one large
// component, long-range attacks, dense self-attacks, isolated arguments):
// the extensions, DC and DS of every argument, and the certificates that
// DC YES and DS NO come with (an extension holding the query, or lacking
// it), as `parley af` prints them for ICCMA'23.
func TestFamiliesAgainstBruteForce(t *testing.T) {
	ctx := context.Background()
	seeds := uint64(12)
	if testing.Short() {
		seeds = 4
	}
	sems := []argue.Semantics{argue.Admissible, argue.Complete, argue.Grounded, argue.Stable, argue.Preferred, argue.SemiStable, argue.Stage, argue.Ideal}
	for _, fam := range randaf.FamilyGens() {
		for seed := range seeds {
			// 0–10 arguments: the brute force tries all 2^n sets.
			n := int(seed*7+3) % 11
			af := fam.Gen(n, seed)
			where := fmt.Sprintf("%s n=%d seed %d (%d attacks)", fam.Name, af.Len(), seed, af.NumAttacks())
			for _, sem := range sems {
				want := argue.BruteForce(af, sem)
				if sem == argue.Grounded {
					want = []argue.Extension{af.Grounded()}
					if co := argue.BruteForce(af, argue.Complete); !slices.ContainsFunc(co, func(e argue.Extension) bool { return slices.Equal(e, want[0]) }) || !slices.EqualFunc(want, minimal(co), slices.Equal) {
						t.Errorf("%s: grounded %v is not the least complete extension of %v", where, want[0], co)
					}
				}
				slices.SortFunc(want, slices.Compare)
				got, err := af.Extensions(ctx, sem)
				if err != nil {
					t.Fatalf("%s %s: %v", where, sem, err)
				}
				if !slices.EqualFunc(got, want, slices.Equal) {
					t.Errorf("%s %s: extensions %v, want %v", where, sem, got, want)
					continue
				}
				isExt := func(e argue.Extension) bool {
					return slices.ContainsFunc(want, func(w argue.Extension) bool { return slices.Equal(w, e) })
				}
				if e, ok, err := af.SomeExtension(ctx, sem); err != nil || ok != (len(want) > 0) || ok && !isExt(e) {
					t.Errorf("%s SE-%s: %v %v (%v), want one of %v", where, sem, e, ok, err, want)
				}
				for a := range af.Len() {
					dc, ds := false, true
					for _, e := range want {
						dc = dc || e.Contains(a)
						ds = ds && e.Contains(a)
					}
					yes, w, err := af.CredulousWitness(ctx, sem, a)
					if err != nil || yes != dc || yes && (!isExt(w) || !w.Contains(a)) {
						t.Errorf("%s DC-%s %d: %v with %v (%v), want %v", where, sem, a+1, yes, w, err, dc)
					}
					yes, w, err = af.SkepticalWitness(ctx, sem, a)
					if err != nil || yes != ds || !yes && (!isExt(w) || w.Contains(a)) {
						t.Errorf("%s DS-%s %d: %v with %v (%v), want %v", where, sem, a+1, yes, w, err, ds)
					}
				}
			}
		}
	}
}

// minimal is the ⊆-least of exts, when there is one (nil otherwise).
func minimal(exts []argue.Extension) []argue.Extension {
	for _, e := range exts {
		least := true
		for _, o := range exts {
			for _, x := range e {
				least = least && o.Contains(x)
			}
		}
		if least {
			return []argue.Extension{e}
		}
	}
	return nil
}

// TestFamiliesAgainstMuToksia compares DC and DS of every ICCMA'23
// semantics with μ-toksia on mid-sized frameworks of each randaf family
// (the shapes of the differential run in docs/benchmarks.md, "New
// generator families", where Parley alone was cut off on DS-PR and
// DC/DS-STG), and checks each certificate by definition: complete,
// admissible, stable or conflict-free as the semantics asks, the query in
// it (DC YES) or not (DS NO), preferred ones maximal by μ-toksia on the
// reduct, semi-stable and stage ones range-maximal, ideal ones μ-toksia's
// ideal extension.
func TestFamiliesAgainstMuToksia(t *testing.T) {
	bin := muToksia(t)
	seeds, n := uint64(3), 120
	if testing.Short() {
		seeds = 1
	}
	if *familiesN > 0 {
		n = *familiesN
	}
	const bound = 20 * time.Second
	dir := t.TempDir()
	sems := []argue.Semantics{argue.Admissible, argue.Complete, argue.Stable, argue.Preferred, argue.SemiStable, argue.Stage, argue.Ideal}
	var agreed, certified, cutOff int
	defer func() {
		t.Logf("%d answers as μ-toksia's, %d certificates checked, %d queries cut off in both", agreed, certified, cutOff)
	}()
	for _, fam := range randaf.FamilyGens() {
		n := n
		if fam.Name == "dense_self" {
			n /= 3 // n²/2 attacks
		}
		for seed := uint64(1); seed <= seeds; seed++ {
			in := randaf.Instance{Name: fmt.Sprintf("%s_n%d_s%d", fam.Name, n, seed), AF: fam.Gen(n, seed)}
			path := in.Path(dir)
			if err := randaf.WriteI23(path, in.AF); err != nil {
				t.Fatal(err)
			}
			var ideal argue.Extension
			for _, sem := range sems {
				for _, a := range randaf.QueryArgs(in.AF.Len(), "DC") {
					for _, task := range []string{"DC", "DS"} {
						problem := task + "-" + string(sem)
						where := fmt.Sprintf("%s %s -a %d", in.Name, problem, a+1)
						ctx, cancel := context.WithTimeout(context.Background(), bound)
						var (
							yes bool
							w   argue.Extension
							err error
						)
						if task == "DC" {
							yes, w, err = in.AF.CredulousWitness(ctx, sem, a)
						} else {
							yes, w, err = in.AF.SkepticalWitness(ctx, sem, a)
						}
						cancel()
						if errors.Is(err, argue.ErrCutOff) {
							if want, ok := peerWithin(bin, problem, path, a, bound); ok {
								t.Errorf("%s: Parley cut off at %s, μ-toksia answers %s", where, bound, want)
							} else {
								t.Logf("%s: cut off at %s in both solvers", where, bound)
								cutOff++
							}
							continue
						}
						if err != nil {
							t.Fatalf("%s: %v", where, err)
						}
						got := map[bool]string{true: "YES", false: "NO"}[yes]
						if want, ok := peerWithin(bin, problem, path, a, 3*bound); !ok {
							t.Logf("%s: μ-toksia cut off at %s; Parley %s, its certificate checked alone", where, 3*bound, got)
						} else if got != want {
							t.Errorf("%s: Parley %s, μ-toksia %s", where, got, want)
							continue
						} else {
							agreed++
						}
						if yes != (task == "DC") {
							continue // no certificate
						}
						if w.Contains(a) != yes {
							t.Errorf("%s: certificate %v has the query %v, want %v", where, w, !yes, yes)
						}
						if sem == argue.Ideal && ideal == nil {
							ideal = extensionOf(t, runPeer(t, bin, "SE-ID", path, -1))
							slices.Sort(ideal)
						}
						if why := certificateFault(t, bin, dir, in, sem, w, ideal); why != "" {
							t.Errorf("%s: certificate %v %s", where, w, why)
						}
						certified++
					}
				}
			}
		}
	}
}

// certificateFault says why e is not an extension of sem of in.AF, or ""
// when it is one. ideal is the ideal extension, for sem = Ideal.
func certificateFault(t *testing.T, bin, dir string, in randaf.Instance, sem argue.Semantics, e, ideal argue.Extension) string {
	t.Helper()
	af := in.AF
	switch sem {
	case argue.Admissible:
		if !af.IsAdmissible(e) {
			return "is not admissible"
		}
	case argue.Complete:
		if !af.IsComplete(e) {
			return "is not complete"
		}
	case argue.Stable:
		if !af.IsStable(e) {
			return "is not stable"
		}
	case argue.Preferred:
		if !af.IsComplete(e) {
			return "is not complete"
		}
		path := filepath.Join(dir, in.Name+".reduct.af")
		if err := randaf.WriteI23(path, reduct(af, e)); err != nil {
			t.Fatal(err)
		}
		if w := runPeer(t, bin, "SE-PR", path, -1); w != "w" {
			return fmt.Sprintf("is not maximal: μ-toksia finds %q in its reduct", w)
		}
	case argue.SemiStable, argue.Stage:
		if sem == argue.SemiStable && !af.IsComplete(e) || !af.IsConflictFree(e) {
			return "is not complete (semi-stable) or conflict-free (stage)"
		}
		if ok, err := argue.RangeIsMaximal(context.Background(), af, sem, e); err != nil || !ok {
			return fmt.Sprintf("has no maximal range (%v)", err)
		}
	case argue.Ideal:
		if !slices.Equal(e, ideal) {
			return fmt.Sprintf("is not the ideal extension %v", ideal)
		}
	}
	return ""
}

// peerWithin runs μ-toksia as runPeer does, bounded by d, and reports its
// first line, or false when it does not answer in time.
func peerWithin(bin, task, path string, a int, d time.Duration) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "-p", task, "-f", path, "-a", strconv.Itoa(a+1))
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return "", false
	}
	first, _, _ := strings.Cut(strings.TrimSpace(out.String()), "\n")
	return strings.TrimSpace(first), true
}

// BenchmarkFamilies measures the goal tasks on randaf.Families in process,
// as BenchmarkRandom does on randaf.Instances (runs cut off after 5 s are
// skipped).
func BenchmarkFamilies(b *testing.B) { benchGoalTasks(b, randaf.Families()) }

package iccma

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// campaign runs TestCampaign for this long (e.g. -campaign=5m); off by
// default, as it exists to be run for minutes by hand, not by CI.
var campaign = flag.Duration("campaign", 0, "run the differential campaign (TestCampaign) for this long")

// campaignAF is a random framework of one of several shapes.
type campaignAF struct {
	shape string
	n     int
	edges [][2]int
}

// randomAF draws a framework of n arguments: random with self-attacks at
// a random density, odd and even cycles with chords, mutual attacks, a
// one-way bipartite graph, chains of small strongly connected parts, or a
// disjoint union of two of those.
func randomAF(rng *rand.Rand, n int) campaignAF {
	seen := map[[2]int]bool{}
	var edges [][2]int
	add := func(a, b int) {
		if e := [2]int{a, b}; !seen[e] {
			seen[e] = true
			edges = append(edges, e)
		}
	}
	var build func(lo, hi int, depth int) string
	build = func(lo, hi int, depth int) string {
		m := hi - lo
		if m == 0 {
			return "empty"
		}
		pick := func() int { return lo + rng.IntN(m) }
		shape := rng.IntN(7)
		if depth > 0 || m < 4 {
			shape = rng.IntN(6)
		}
		switch shape {
		case 0: // random: mean out-degree 0.5..4, some self-attacks
			d := 0.5 + rng.Float64()*3.5
			for range int(float64(m) * d) {
				add(pick(), pick())
			}
			return fmt.Sprintf("er%.1f", d)
		case 1: // one cycle of odd or even length, with chords
			for a := lo; a < hi; a++ {
				add(a, lo+(a-lo+1)%m)
				if rng.IntN(5) == 0 {
					add(a, pick())
				}
			}
			return "cycle"
		case 2: // mutual attacks
			p := 2.0 / float64(m)
			for a := lo; a < hi; a++ {
				for b := a + 1; b < hi; b++ {
					if rng.Float64() < p {
						add(a, b)
						add(b, a)
					}
				}
			}
			return "mutual"
		case 3: // one side attacks the other
			k := lo + 1 + rng.IntN(max(m-1, 1))
			for a := lo; a < k; a++ {
				for b := k; b < hi; b++ {
					if rng.IntN(3) == 0 {
						add(a, b)
					}
				}
			}
			return "bipartite"
		case 4: // self-attacks, isolated arguments and a few attacks
			for a := lo; a < hi; a++ {
				switch rng.IntN(4) {
				case 0:
					add(a, a)
				case 1:
					add(a, pick())
					add(pick(), a)
				}
			}
			return "self"
		case 5: // a chain of small strongly connected parts (odd cycles among them)
			size := 2 + rng.IntN(3)
			for s := lo; s < hi; s += size {
				e := min(s+size, hi)
				for a := s; a < e; a++ {
					add(a, s+(a-s+1)%(e-s))
					if e < hi && rng.IntN(2) == 0 {
						add(a, e+rng.IntN(min(size, hi-e)))
					}
				}
			}
			return fmt.Sprintf("sccchain%d", size)
		default: // two disconnected parts
			mid := lo + 1 + rng.IntN(m-1)
			return build(lo, mid, depth+1) + "+" + build(mid, hi, depth+1)
		}
	}
	shape := build(0, n, 0)
	return campaignAF{shape: shape, n: n, edges: edges}
}

// i23 writes the framework in ICCMA 2023 format, with a comment and, at
// random, CRLF line ends.
func (c campaignAF) i23(rng *rand.Rand) string {
	nl := []string{"\n", "\r\n"}[rng.IntN(2)]
	var b strings.Builder
	fmt.Fprintf(&b, "# %s%sp af %d%s", c.shape, nl, c.n, nl)
	for _, e := range c.edges {
		fmt.Fprintf(&b, "%d %d%s", e[0]+1, e[1]+1, nl)
	}
	return b.String()
}

// campaignRun runs a problem through Run and returns its output.
func campaignRun(ctx context.Context, problem, file, format, arg string) (string, error) {
	var buf bytes.Buffer
	err := Run(ctx, Options{Problem: problem, File: "-", Format: format, Arg: arg, Input: strings.NewReader(file)}, &buf)
	return buf.String(), err
}

// peerRun runs μ-toksia and returns its output with the trailing spaces of
// its "w " lines dropped, as Parley writes them.
func peerRun(ctx context.Context, bin, problem, path, arg string) (string, error) {
	args := []string{"-p", problem, "-f", path}
	if arg != "" {
		args = append(args, "-a", arg)
	}
	out, err := exec.CommandContext(ctx, bin, args...).Output()
	if err != nil {
		return "", fmt.Errorf("μ-toksia %v: %w", args, err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	return strings.Join(lines, "\n") + "\n", nil
}

// peerPath is the μ-toksia binary, or "" when it is not built.
func peerPath() string {
	p := os.Getenv("MU_TOKSIA")
	if p == "" {
		home, _ := os.UserHomeDir()
		p = filepath.Join(home, ".cache", "mu-toksia", "mu-toksia", "build", "release", "bin", "mu-toksia")
	}
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// checker tests sets of a framework against the definitions, as bit sets
// over any number of arguments.
type checker struct {
	n       int
	out, in [][]int
}

func newChecker(c campaignAF) checker {
	k := checker{n: c.n, out: make([][]int, c.n), in: make([][]int, c.n)}
	for _, e := range c.edges {
		k.out[e[0]] = append(k.out[e[0]], e[1])
		k.in[e[1]] = append(k.in[e[1]], e[0])
	}
	return k
}

func (k checker) attacked(s []bool) []bool {
	r := make([]bool, k.n)
	for a := range k.n {
		if s[a] {
			for _, b := range k.out[a] {
				r[b] = true
			}
		}
	}
	return r
}

// props says which of conflict-free, admissible, complete and stable s is.
func (k checker) props(s []bool) (cf, adm, co, st bool) {
	att := k.attacked(s)
	cf = true
	for a := range k.n {
		if s[a] && att[a] {
			cf = false
		}
	}
	defended := func(a int) bool {
		for _, b := range k.in[a] {
			if !att[b] {
				return false
			}
		}
		return true
	}
	adm, co, st = cf, cf, cf
	for a := range k.n {
		d := defended(a)
		if s[a] && !d {
			adm, co = false, false
		}
		if !s[a] && d {
			co = false
		}
		if !s[a] && !att[a] {
			st = false
		}
	}
	return cf, adm, co && adm, st
}

// grounded is the least fixed point of the characteristic function.
func (k checker) grounded() []bool {
	s := make([]bool, k.n)
	for {
		att := k.attacked(s)
		changed := false
		for a := range k.n {
			if s[a] {
				continue
			}
			ok := true
			for _, b := range k.in[a] {
				if !att[b] {
					ok = false
					break
				}
			}
			if ok {
				s[a], changed = true, true
			}
		}
		if !changed {
			return s
		}
	}
}

// reductFile writes the reduct of the framework by s (the arguments
// neither in s nor attacked by it, Baumann et al. 2020) beside path.
func reductFile(t *testing.T, k checker, s []bool, path string) string {
	t.Helper()
	att := k.attacked(s)
	idx := make([]int, k.n)
	m := 0
	for a := range k.n {
		idx[a] = -1
		if !s[a] && !att[a] {
			m++
			idx[a] = m
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "p af %d\n", m)
	for a := range k.n {
		for _, x := range k.out[a] {
			if idx[a] > 0 && idx[x] > 0 {
				fmt.Fprintf(&b, "%d %d\n", idx[a], idx[x])
			}
		}
	}
	r := path + ".reduct.af"
	if err := os.WriteFile(r, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return r
}

// parseWide reads "w 1 3" over n arguments; ok is false for anything else.
func parseWide(line string, n int) ([]bool, bool) {
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != "w" || line != strings.Join(fields, " ") {
		return nil, false
	}
	s := make([]bool, n)
	for _, f := range fields[1:] {
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 || v > n || s[v-1] || strconv.Itoa(v) != f {
			return nil, false
		}
		s[v-1] = true
	}
	return s, true
}

// TestCampaign is a differential campaign over random frameworks of
// varied shapes, for every problem of --problems, run for -campaign (off
// by default): up to 14 arguments against the extensions computed from
// the definitions (every argument queried, outputs exact), from 15 to 200
// against μ-toksia on its problems (DC, DS and SE under AD, CO, PR, ST,
// SST, STG, ID: the same YES or NO, certificates and extensions checked by
// definition, ID's unique extension equal) and against the definitions
// for GR; EE and CE must agree with each other and with SE and DC/DS.
// Every framework is also read as apx and tgf, whose answers must match
// the i23 ones in their own style.
func TestCampaign(t *testing.T) {
	if *campaign == 0 {
		t.Skip("the differential campaign runs with -campaign=DURATION")
	}
	peer := peerPath()
	if peer == "" {
		t.Log("μ-toksia not built: frameworks over 14 arguments are checked against the definitions only")
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	dir := t.TempDir()
	deadline := time.Now().Add(*campaign)
	counts := map[string]int{}
	for trial := 0; time.Now().Before(deadline); trial++ {
		var n int
		switch r := rng.IntN(10); {
		case r < 5:
			n = 1 + rng.IntN(14)
		case r < 8:
			n = 15 + rng.IntN(50)
		default:
			n = 65 + rng.IntN(136)
		}
		c := randomAF(rng, n)
		file := c.i23(rng)
		if n <= 14 {
			campaignSmall(t, trial, c, file, counts)
		} else {
			path := filepath.Join(dir, "f.af")
			if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
				t.Fatal(err)
			}
			campaignLarge(t, rng, trial, c, file, path, peer, counts)
		}
		campaignFormats(t, rng, trial, c, file, counts)
		if t.Failed() {
			t.Fatalf("trial %d (%s, n=%d) failed; framework:\n%s", trial, c.shape, n, file)
		}
	}
	t.Logf("checks: %v", counts)
}

// campaignSmall checks every problem and argument against the oracle.
func campaignSmall(t *testing.T, trial int, c campaignAF, file string, counts map[string]int) {
	o := newOracle(c.n, c.edges)
	ctx := context.Background()
	for _, problem := range Problems() {
		task, sem, _ := strings.Cut(problem, "-")
		args := []string{""}
		if task == "DC" || task == "DS" {
			args = args[:0]
			for a := range c.n {
				args = append(args, strconv.Itoa(a+1))
			}
		}
		for _, arg := range args {
			got, err := campaignRun(ctx, problem, file, "i23", arg)
			where := fmt.Sprintf("trial %d small %s -a %q", trial, problem, arg)
			if err != nil {
				t.Errorf("%s: %v", where, err)
				return
			}
			counts["oracle "+problem]++
			if err := o.check(task, sem, arg, got, c.n); err != nil {
				t.Errorf("%s: %v", where, err)
			}
		}
	}
}

// campaignLarge checks a framework of 15 to 200 arguments against
// μ-toksia and the definitions.
func campaignLarge(t *testing.T, rng *rand.Rand, trial int, c campaignAF, file, path, peer string, counts map[string]int) {
	k := newChecker(c)
	gr := k.grounded()
	// valid says whether s is an extension as far as the definitions can
	// tell without a search: the base property of sem, grounded exactly.
	valid := func(sem string, s []bool) bool {
		cf, adm, co, st := k.props(s)
		switch sem {
		case "AD":
			return adm
		case "CO", "PR", "SST", "ID":
			return co
		case "ST":
			return st
		case "STG":
			return cf
		case "GR":
			return slices.Equal(s, gr)
		}
		return false
	}
	var queries []string
	for range 4 {
		queries = append(queries, strconv.Itoa(1+rng.IntN(c.n)))
	}
	// Each run has its own bound, μ-toksia a longer one: a run cut off is
	// counted, and μ-toksia's time on it logged, with the framework kept in
	// $PARLEY_CAMPAIGN_KEEP if set.
	ctx := context.Background()
	solve := func(problem, arg string) (string, bool, error) {
		rctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		out, err := campaignRun(rctx, problem, file, "i23", arg)
		if err != nil && rctx.Err() != nil {
			counts["timeout "+problem]++
			campaignCutOff(t, trial, c, file, path, peer, problem, arg)
			return "", false, nil
		}
		return out, true, err
	}
	for _, sem := range []string{"AD", "CO", "GR", "PR", "ST", "SST", "STG", "ID"} {
		// ask runs μ-toksia with a bound of its own; ok is false when it
		// was cut off (counted: on some of these it takes minutes where
		// Parley takes milliseconds).
		ask := func(problem, file, arg string) (string, bool) {
			pctx, cancel := context.WithTimeout(ctx, 60*time.Second)
			defer cancel()
			out, err := peerRun(pctx, peer, problem, file, arg)
			if err != nil && pctx.Err() != nil {
				counts["μ-toksia timeout "+problem]++
				t.Logf("μ-toksia cut off at 60 s: trial %d (%s n=%d) %s -a %q", trial, c.shape, c.n, problem, arg)
				return "", false
			}
			if err != nil {
				t.Errorf("%v", err)
				return "", false
			}
			return out, true
		}
		where := fmt.Sprintf("trial %d (%s n=%d) %s", trial, c.shape, c.n, sem)
		se, ok, err := solve("SE-"+sem, "")
		if !ok {
			continue
		}
		if err != nil {
			t.Errorf("%s SE: %v", where, err)
			return
		}
		var peerSE string
		if peer != "" && sem != "GR" {
			if peerSE, ok = ask("SE-"+sem, path, ""); ok {
				if (se == "NO\n") != (peerSE == "NO\n") || sem == "ID" && se != peerSE {
					t.Errorf("%s SE: Parley %q, μ-toksia %q", where, se, peerSE)
				}
				counts["peer SE-"+sem]++
			}
		}
		if se != "NO\n" {
			s, ok := parseWide(strings.TrimSuffix(se, "\n"), c.n)
			if !ok || !strings.HasSuffix(se, "\n") || !valid(sem, s) {
				t.Errorf("%s SE: %q is not an extension", where, se)
			} else if sem == "PR" && peer != "" {
				// Maximal: the reduct has no non-empty admissible set.
				if w, ok := ask("SE-PR", reductFile(t, k, s, path), ""); ok {
					if w != "w\n" {
						t.Errorf("%s SE: %q is not maximal: μ-toksia finds %q in its reduct", where, se, w)
					}
					counts["peer maximal SE-PR"]++
				}
			}
		} else if sem != "ST" {
			t.Errorf("%s SE: NO, but every framework has one", where)
		}
		// DC and DS on a few arguments: the same answer as μ-toksia's (or
		// the grounded extension's), the certificate a valid extension.
		for _, q := range queries {
			qi, _ := strconv.Atoi(q)
			for _, task := range []string{"DC", "DS"} {
				problem := task + "-" + sem
				got, ok, err := solve(problem, q)
				if !ok {
					continue
				}
				if err != nil {
					t.Errorf("%s %s -a %s: %v", where, problem, q, err)
					return
				}
				answer, cert, _ := strings.Cut(got, "\n")
				var want string
				switch {
				case sem == "GR":
					want = map[bool]string{true: "YES", false: "NO"}[gr[qi-1]]
					counts["definition "+problem]++
				case peer != "":
					if p, ok := ask(problem, path, q); ok {
						want, _, _ = strings.Cut(p, "\n")
						counts["peer "+problem]++
					}
				}
				if want != "" && answer != want {
					t.Errorf("%s %s -a %s: Parley %q, want %s", where, problem, q, got, want)
				}
				if (answer == "YES") == (task == "DC") {
					s, ok := parseWide(strings.TrimSuffix(cert, "\n"), c.n)
					if !ok || !valid(sem, s) || s[qi-1] != (task == "DC") {
						t.Errorf("%s %s -a %s: %q: bad certificate", where, problem, q, got)
					}
				} else if cert != "" {
					t.Errorf("%s %s -a %s: %q: want %s alone", where, problem, q, got, answer)
				}
			}
		}
		// EE and CE, when they finish: CE counts EE's distinct valid
		// extensions, SE's answer is among them, and DC/DS agree with them.
		// Enumeration is exponential on many of these: a short bound.
		ectx, ecancel := context.WithTimeout(ctx, 3*time.Second)
		defer ecancel()
		ee, err := campaignRun(ectx, "EE-"+sem, file, "i23", "")
		if err != nil {
			counts["timeout EE-"+sem]++
			continue
		}
		ce, err := campaignRun(ectx, "CE-"+sem, file, "i23", "")
		if err != nil {
			counts["timeout CE-"+sem]++
			continue
		}
		lines := strings.Split(strings.TrimSuffix(ee, "\n"), "\n")
		if lines[0] == "NO" && len(lines) == 1 {
			lines = nil
		}
		if ce != fmt.Sprintf("%d\n", len(lines)) {
			t.Errorf("%s: CE %q, EE has %d lines", where, ce, len(lines))
		}
		seen := map[string]bool{}
		union, inter := make([]bool, c.n), make([]bool, c.n)
		for i := range inter {
			inter[i] = true
		}
		for _, l := range lines {
			s, ok := parseWide(l, c.n)
			if !ok || !valid(sem, s) || seen[l] {
				t.Errorf("%s EE: line %q is not a new extension", where, l)
				continue
			}
			seen[l] = true
			for a := range c.n {
				union[a] = union[a] || s[a]
				inter[a] = inter[a] && s[a]
			}
		}
		if se != "NO\n" && !seen[strings.TrimSuffix(se, "\n")] {
			t.Errorf("%s: SE's %q is not among EE's", where, se)
		}
		for _, q := range queries {
			qi, _ := strconv.Atoi(q)
			dc, okc, _ := solve("DC-"+sem, q)
			ds, oks, _ := solve("DS-"+sem, q)
			if !okc || !oks {
				continue
			}
			if strings.HasPrefix(dc, "YES") != union[qi-1] || strings.HasPrefix(ds, "YES") != inter[qi-1] {
				t.Errorf("%s -a %s: DC %q DS %q disagree with EE's %d extensions", where, q, dc, ds, len(lines))
			}
		}
		counts["consistent EE/CE-"+sem]++
	}
}

// campaignCutOff logs a run that was cut off with μ-toksia's time on the
// same problem, and keeps the framework in $PARLEY_CAMPAIGN_KEEP if set:
// where Parley is far slower than its peer is worth a look.
func campaignCutOff(t *testing.T, trial int, c campaignAF, file, path, peer, problem, arg string) {
	t.Helper()
	name := fmt.Sprintf("trial%d_%s_n%d_%s_a%s.af", trial, strings.ReplaceAll(c.shape, "+", "_"), c.n, problem, arg)
	if keep := os.Getenv("PARLEY_CAMPAIGN_KEEP"); keep != "" {
		if err := os.WriteFile(filepath.Join(keep, name), []byte(file), 0o644); err != nil {
			t.Errorf("keep %s: %v", name, err)
		}
	}
	peerSays := "μ-toksia not run"
	if peer != "" && !strings.HasPrefix(problem, "EE") && !strings.HasPrefix(problem, "CE") && !strings.HasSuffix(problem, "GR") {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		start := time.Now()
		out, err := peerRun(ctx, peer, problem, path, arg)
		first, _, _ := strings.Cut(out, "\n")
		peerSays = fmt.Sprintf("μ-toksia %q in %s (err %v)", first, time.Since(start).Round(time.Millisecond), err)
	}
	t.Logf("cut off at 20 s: %s: %s", name, peerSays)
}

// campaignFormats reads the framework as apx and tgf, with names that are
// not its numbers, and checks that SE-GR, CE and DC/DS give the i23 answers
// in the ICCMA 2019 style.
func campaignFormats(t *testing.T, rng *rand.Rand, trial int, c campaignAF, file string, counts map[string]int) {
	names := make([]string, c.n)
	for a := range names {
		names[a] = []string{"a%d", "arg_%d", "%d", "x%dé"}[rng.IntN(4)]
		names[a] = strings.ReplaceAll(names[a], "%d", strconv.Itoa(a+1))
	}
	// Written as other tools write them, at random: apx facts shuffled
	// (attacks before their arguments), repeated, commented, laid out over
	// lines or on one; tgf with labels, CRLF and blank lines.
	var facts []string
	for _, name := range names {
		facts = append(facts, fmt.Sprintf("arg(%s).", name))
	}
	for _, e := range c.edges {
		facts = append(facts, fmt.Sprintf("att( %s ,%s ).", names[e[0]], names[e[1]]))
	}
	if rng.IntN(2) == 0 {
		rng.Shuffle(len(facts), func(i, j int) { facts[i], facts[j] = facts[j], facts[i] })
	}
	var apx, tgf strings.Builder
	nl := []string{"\n", "\r\n"}[rng.IntN(2)]
	fmt.Fprintf(&apx, "%% %s%s%%* n=%d%s*%%", c.shape, nl, c.n, nl)
	for _, f := range facts {
		switch rng.IntN(8) {
		case 0:
			apx.WriteString(" " + f + " " + f + nl) // repeated
		case 1:
			apx.WriteString(f + " % comment" + nl)
		case 2:
			apx.WriteString(f + " ")
		default:
			apx.WriteString(f + nl)
		}
	}
	for _, name := range names {
		fmt.Fprintf(&tgf, "%s%s%s", name, []string{"", " label", "\t(a node)"}[rng.IntN(3)], nl)
	}
	tgf.WriteString("#" + nl)
	for _, e := range c.edges {
		fmt.Fprintf(&tgf, "%s %s%s%s", names[e[0]], names[e[1]], []string{"", " 1", ""}[rng.IntN(3)], nl)
		if rng.IntN(10) == 0 {
			tgf.WriteString(nl)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sem := []string{"CO", "GR", "PR", "ST", "SST", "STG", "ID", "AD"}[rng.IntN(8)]
	q := rng.IntN(c.n)
	for _, problem := range []string{"SE-GR", "CE-" + sem, "DC-" + sem, "DS-" + sem} {
		arg := ""
		if strings.HasPrefix(problem, "D") {
			arg = strconv.Itoa(q + 1)
		}
		want, err := campaignRun(ctx, problem, file, "i23", arg)
		if err != nil {
			counts["timeout formats"]++
			return
		}
		switch {
		case problem == "SE-GR":
			s, _ := parseWide(strings.TrimSuffix(want, "\n"), c.n)
			var in []string
			for a := range c.n {
				if s[a] {
					in = append(in, names[a])
				}
			}
			want = "[" + strings.Join(in, ",") + "]\n"
		case strings.HasPrefix(problem, "D"):
			want, _, _ = strings.Cut(want, "\n")
			want += "\n"
		}
		for _, f := range []struct{ format, text string }{{"apx", apx.String()}, {"tgf", tgf.String()}} {
			a := ""
			if arg != "" {
				a = names[q]
			}
			got, err := campaignRun(ctx, problem, f.text, f.format, a)
			if err != nil {
				if ctx.Err() == nil {
					t.Errorf("trial %d %s %s -a %q: %v", trial, f.format, problem, a, err)
				}
				return
			}
			if problem == "SE-GR" {
				// The 2019 style lists names in the framework's order.
				got = "[" + strings.Join(sortedNames(got, names), ",") + "]\n"
				want = "[" + strings.Join(sortedNames(want, names), ",") + "]\n"
			}
			if got != want {
				t.Errorf("trial %d %s %s -a %q: %q, i23 answer %q", trial, f.format, problem, a, got, want)
			}
			counts["formats "+f.format]++
		}
	}
}

// sortedNames lists the names of "[a,b]" in the order of all.
func sortedNames(bracket string, all []string) []string {
	inner := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(bracket), "["), "]")
	if inner == "" {
		return nil
	}
	got := strings.Split(inner, ",")
	slices.SortFunc(got, func(a, b string) int { return slices.Index(all, a) - slices.Index(all, b) })
	return got
}

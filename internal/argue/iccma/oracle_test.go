package iccma

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// oracle holds every extension of a small framework under each semantics,
// computed from the definitions over all 2^n sets as bit masks, with no
// code in common with the solver.
type oracle map[string][]uint32

func newOracle(n int, edges [][2]int) oracle {
	out, in := make([]uint32, n), make([]uint32, n)
	for _, e := range edges {
		out[e[0]] |= 1 << e[1]
		in[e[1]] |= 1 << e[0]
	}
	all := uint32(1)<<n - 1
	N := 1 << n
	attacked := make([]uint32, N) // attacked[s]: the arguments s attacks
	for s := 1; s < N; s++ {
		b := 0
		for s&(1<<b) == 0 {
			b++
		}
		attacked[s] = attacked[s&^(1<<b)] | out[b]
	}
	o := oracle{}
	var cf []uint32
	for s := range N {
		set := uint32(s)
		if attacked[s]&set != 0 {
			continue
		}
		cf = append(cf, set)
		var defended uint32
		for a := range n {
			if in[a]&^attacked[s] == 0 {
				defended |= 1 << a
			}
		}
		if set&^defended == 0 {
			o["AD"] = append(o["AD"], set)
			if defended == set {
				o["CO"] = append(o["CO"], set)
			}
		}
		if set|attacked[s] == all {
			o["ST"] = append(o["ST"], set)
		}
	}
	rng := func(s uint32) uint32 { return s | attacked[s] }
	same := func(s uint32) uint32 { return s }
	// maximal keeps the candidates whose key no other candidate's key
	// strictly contains.
	maximal := func(cands []uint32, key func(uint32) uint32) []uint32 {
		var res []uint32
		for _, c := range cands {
			k, top := key(c), true
			for _, d := range cands {
				if kd := key(d); kd != k && kd&k == k {
					top = false
					break
				}
			}
			if top {
				res = append(res, c)
			}
		}
		return res
	}
	o["PR"] = maximal(o["CO"], same)
	o["SST"] = maximal(o["CO"], rng)
	o["STG"] = maximal(cf, rng)
	grounded, inAllPR := all, all
	for _, c := range o["CO"] {
		grounded &= c
	}
	for _, p := range o["PR"] {
		inAllPR &= p
	}
	var ideal uint32 // the union of the admissible sets inside every preferred one
	for _, a := range o["AD"] {
		if a&^inAllPR == 0 {
			ideal |= a
		}
	}
	o["GR"], o["ID"] = []uint32{grounded}, []uint32{ideal}
	return o
}

// parseW reads an i23 extension line "w 1 3" as a mask; ok is false for
// anything else, including a repeated or out-of-range argument.
func parseW(line string, n int) (uint32, bool) {
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != "w" || line != strings.Join(fields, " ") {
		return 0, false
	}
	var m uint32
	for _, f := range fields[1:] {
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 || v > n || m&(1<<(v-1)) != 0 || strconv.Itoa(v) != f {
			return 0, false
		}
		m |= 1 << (v - 1)
	}
	return m, true
}

// TestAllProblemsAgainstDefinitions runs every problem of --problems
// through Run on small frameworks of several shapes (random with
// self-attacks, odd and even cycles, mutual attacks, one-way bipartite,
// isolated and self-attacking arguments, the empty framework) written with
// the variations i23 allows, and checks each output byte for byte against
// the extensions computed from the definitions: SE one extension line or
// NO, EE every extension once, CE the count, DC/DS YES or NO for every
// argument (DS vacuously YES without extensions), with the certificate of
// DC YES and DS NO.
func TestAllProblemsAgainstDefinitions(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 2023))
	trials := 160
	if testing.Short() {
		trials = 40
	}
	ctx := context.Background()
	problems := Problems()
	for trial := range trials {
		n := rng.IntN(9)
		var edges [][2]int
		add := func(a, b int) {
			if !slices.Contains(edges, [2]int{a, b}) {
				edges = append(edges, [2]int{a, b})
			}
		}
		switch shape := trial % 5; {
		case shape == 0 || n < 2:
			p := rng.Float64() * 0.4
			for a := range n {
				for b := range n {
					if rng.Float64() < p {
						add(a, b)
					}
				}
			}
		case shape == 1: // a cycle, and chords
			for a := range n {
				add(a, (a+1)%n)
				if rng.IntN(4) == 0 {
					add(a, rng.IntN(n))
				}
			}
		case shape == 2: // mutual attacks
			for a := range n {
				for b := a + 1; b < n; b++ {
					if rng.IntN(3) == 0 {
						add(a, b)
						add(b, a)
					}
				}
			}
		case shape == 3: // one side attacks the other
			k := 1 + rng.IntN(n-1)
			for a := range k {
				for b := k; b < n; b++ {
					add(a, b)
				}
			}
		default: // in no attack, only on itself, or random
			for a := range n {
				switch rng.IntN(3) {
				case 0:
					add(a, a)
				case 1:
					add(a, rng.IntN(n))
					add(rng.IntN(n), a)
				}
			}
		}
		o := newOracle(n, edges)
		var file strings.Builder
		nl := []string{"\n", "\r\n"}[rng.IntN(2)]
		fmt.Fprintf(&file, "# trial %d%sp af %d%s", trial, nl, n, nl)
		for _, e := range edges {
			fmt.Fprintf(&file, "%d %d%s", e[0]+1, e[1]+1, nl)
			if rng.IntN(8) == 0 {
				fmt.Fprintf(&file, "%s# again%s%d %d%s", nl, nl, e[0]+1, e[1]+1, nl)
			}
		}
		for _, problem := range problems {
			task, sem, _ := strings.Cut(problem, "-")
			args := []string{""}
			if task == "DC" || task == "DS" {
				args = args[:0]
				for a := range n {
					args = append(args, strconv.Itoa(a+1))
				}
			}
			for _, arg := range args {
				var buf bytes.Buffer
				err := Run(ctx, Options{Problem: problem, File: "-", Format: "i23", Arg: arg, Input: strings.NewReader(file.String())}, &buf)
				got := buf.String()
				where := fmt.Sprintf("trial %d, %s -a %q on\n%s", trial, problem, arg, file.String())
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				if err := o.check(task, sem, arg, got, n); err != nil {
					t.Fatalf("%s: %v", where, err)
				}
			}
		}
	}
}

// check returns what is wrong with got, the i23 answer to TASK-sem (-a arg
// for DC and DS) on a framework of n arguments, against the extensions o
// holds, or nil when it is right: SE one of them (NO for none), EE all of
// them, CE their number, DC/DS the answer and, for DC YES and DS NO, a
// certificate that is an extension containing (DC) or lacking (DS) arg.
func (o oracle) check(task, sem, arg, got string, n int) error {
	exts := o[sem]
	switch task {
	case "SE":
		m, ok := parseW(strings.TrimSuffix(got, "\n"), n)
		if len(exts) == 0 && got != "NO\n" || len(exts) > 0 && (!ok || !strings.HasSuffix(got, "\n") || !slices.Contains(exts, m)) {
			return fmt.Errorf("%q is not one of the extensions %b", got, exts)
		}
	case "EE":
		var seen []uint32
		for _, line := range strings.SplitAfter(got, "\n") {
			if m, ok := parseW(strings.TrimSuffix(line, "\n"), n); ok && strings.HasSuffix(line, "\n") {
				seen = append(seen, m)
			} else if line != "" && !(line == "NO\n" && len(exts) == 0) {
				return fmt.Errorf("line %q", line)
			}
		}
		want := slices.Clone(exts)
		slices.Sort(seen)
		slices.Sort(want)
		if !slices.Equal(seen, want) {
			return fmt.Errorf("%q, want the extensions %b", got, want)
		}
	case "CE":
		if want := fmt.Sprintf("%d\n", len(exts)); got != want {
			return fmt.Errorf("%q, want %q", got, want)
		}
	default:
		a, _ := strconv.Atoi(arg)
		in := 0
		for _, e := range exts {
			if e&(1<<(a-1)) != 0 {
				in++
			}
		}
		yes := in > 0
		if task == "DS" {
			yes = in == len(exts)
		}
		answer, cert, _ := strings.Cut(got, "\n")
		if want := map[bool]string{true: "YES", false: "NO"}[yes]; answer != want {
			return fmt.Errorf("%q, want %q (extensions %b)", got, want, exts)
		}
		// DC YES and DS NO carry a certificate: an extension that
		// contains the argument (DC), or lacks it (DS).
		if yes != (task == "DC") {
			if cert != "" {
				return fmt.Errorf("%q, want %q alone", got, answer)
			}
			return nil
		}
		m, ok := parseW(strings.TrimSuffix(cert, "\n"), n)
		if !ok || !strings.HasSuffix(cert, "\n") || !slices.Contains(exts, m) || (m&(1<<(a-1)) != 0) != (task == "DC") {
			return fmt.Errorf("%q: the certificate is not an extension that %s %s (extensions %b)", got, map[bool]string{true: "contains", false: "lacks"}[task == "DC"], arg, exts)
		}
	}
	return nil
}

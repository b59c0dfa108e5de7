package argue

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Semantics names an extension-based semantics, using the ICCMA
// abbreviations.
type Semantics string

// The supported semantics.
const (
	Grounded   Semantics = "GR"
	Complete   Semantics = "CO"
	Preferred  Semantics = "PR"
	Stable     Semantics = "ST"
	SemiStable Semantics = "SST"
	Stage      Semantics = "STG"
	Ideal      Semantics = "ID"
)

// AllSemantics lists the supported semantics in a stable order.
func AllSemantics() []Semantics {
	return []Semantics{Complete, Grounded, Preferred, Stable, SemiStable, Stage, Ideal}
}

// ParseSemantics accepts an ICCMA abbreviation (case-insensitive).
func ParseSemantics(s string) (Semantics, error) {
	for _, sem := range AllSemantics() {
		if strings.EqualFold(s, string(sem)) {
			return sem, nil
		}
	}
	names := make([]string, 0, 7)
	for _, sem := range AllSemantics() {
		names = append(names, string(sem))
	}
	return "", fmt.Errorf("argue: unknown semantics %q (valid: %s)", s, strings.Join(names, ", "))
}

// Enumerate calls fn with each extension of f under sem, in no particular
// order, until fn returns false or all have been produced. If ctx ends
// first, the error wraps ErrCutOff and ctx.Err(); extensions already passed
// to fn are genuine.
func (f *Framework) Enumerate(ctx context.Context, sem Semantics, fn func(Extension) bool) error {
	switch sem {
	case Grounded:
		fn(f.Grounded())
		return nil
	case Ideal:
		e, err := f.Ideal(ctx)
		if err != nil {
			return err
		}
		fn(e)
		return nil
	case Complete, Stable:
		c := f.core(true)
		cl := c.complete()
		if sem == Stable {
			cl = c.stable()
		}
		return c.enumModels(ctx, cl, func(m []bool) bool { return fn(c.ext(c.inOf(m))) })
	case Preferred:
		c := f.core(true)
		return c.preferred(ctx, nil, func(s []int) bool { return fn(c.ext(s)) })
	case SemiStable:
		c := f.core(true)
		return c.rangeMaximal(ctx, c.complete(), func(s []int) bool { return fn(c.ext(s)) })
	case Stage:
		c := f.core(false)
		return c.rangeMaximal(ctx, c.conflictFree(), func(s []int) bool { return fn(c.ext(s)) })
	}
	_, err := ParseSemantics(string(sem))
	return err
}

// Extensions returns all extensions of f under sem, sorted by
// slices.Compare. On a cut-off it returns those found so far with the error.
func (f *Framework) Extensions(ctx context.Context, sem Semantics) ([]Extension, error) {
	var all []Extension
	err := f.Enumerate(ctx, sem, func(e Extension) bool {
		all = append(all, e)
		return true
	})
	slices.SortFunc(all, slices.Compare)
	return all, err
}

// Count returns the number of extensions under sem. On a cut-off the count
// is a lower bound and the error wraps ErrCutOff.
func (f *Framework) Count(ctx context.Context, sem Semantics) (int, error) {
	n := 0
	err := f.Enumerate(ctx, sem, func(Extension) bool { n++; return true })
	return n, err
}

// SomeExtension returns one extension under sem, or ok=false if there is
// none (only possible for stable semantics).
func (f *Framework) SomeExtension(ctx context.Context, sem Semantics) (e Extension, ok bool, err error) {
	switch sem {
	case Grounded, Complete:
		return f.Grounded(), true, nil
	case Ideal:
		e, err := f.Ideal(ctx)
		return e, err == nil, err
	case Stable:
		c := f.core(true)
		m, ok, err := solveOnce(ctx, c.nVars(), c.stable())
		if err != nil || !ok {
			return nil, false, err
		}
		return c.ext(c.inOf(m)), true, nil
	case Preferred:
		c := f.core(true)
		// The empty core set is complete in the core, so growing it from
		// there always reaches a preferred extension.
		s, err := c.maximise(ctx, c.complete(), nil)
		if err != nil {
			return nil, false, err
		}
		return c.ext(s), true, nil
	}
	err = f.Enumerate(ctx, sem, func(x Extension) bool { e, ok = x, true; return false })
	return e, ok, err
}

// Credulous reports whether argument a belongs to some extension under sem.
func (f *Framework) Credulous(ctx context.Context, sem Semantics, a int) (bool, error) {
	if err := f.checkArg(a); err != nil {
		return false, err
	}
	switch sem {
	case Grounded:
		return f.Grounded().Contains(a), nil
	case Ideal:
		e, err := f.Ideal(ctx)
		return e.Contains(a), err
	case Complete, Preferred, Stable:
		c := f.core(true)
		if c.loc[a] < 0 {
			if c.base.Contains(a) {
				if sem == Stable { // in every stable extension, if there is one
					_, ok, err := solveOnce(ctx, c.nVars(), c.stable())
					return ok, err
				}
				return true, nil
			}
			return false, nil // grounded OUT: in no complete extension
		}
		cl := c.complete()
		if sem == Stable {
			cl = c.stable()
		}
		_, ok, err := solveOnce(ctx, c.nVars(), cl, []int{c.in(c.loc[a])})
		return ok, err
	}
	found := false
	err := f.Enumerate(ctx, sem, func(e Extension) bool {
		found = e.Contains(a)
		return !found
	})
	return found, err
}

// Skeptical reports whether argument a belongs to every extension under
// sem. Following ICCMA, it is vacuously true when there is no extension
// (possible only for stable semantics).
func (f *Framework) Skeptical(ctx context.Context, sem Semantics, a int) (bool, error) {
	if err := f.checkArg(a); err != nil {
		return false, err
	}
	switch sem {
	case Grounded, Complete:
		return f.Grounded().Contains(a), nil
	case Ideal:
		e, err := f.Ideal(ctx)
		return e.Contains(a), err
	case Stable, Preferred:
		c := f.core(true)
		if c.loc[a] < 0 {
			if c.base.Contains(a) {
				return true, nil
			}
			if sem == Stable { // in no stable extension: true only if none exists
				_, ok, err := solveOnce(ctx, c.nVars(), c.stable())
				return !ok, err
			}
			return false, nil
		}
		if sem == Stable {
			_, ok, err := solveOnce(ctx, c.nVars(), c.stable(), []int{-c.in(c.loc[a])})
			return !ok, err
		}
		return c.skepticalPreferred(ctx, c.loc[a])
	}
	all := true
	err := f.Enumerate(ctx, sem, func(e Extension) bool {
		all = e.Contains(a)
		return all
	})
	return all, err
}

func (f *Framework) checkArg(a int) error {
	if a < 0 || a >= f.Len() {
		return fmt.Errorf("argue: argument index %d out of range 0..%d", a, f.Len()-1)
	}
	return nil
}

// Ideal returns the ideal extension: the largest admissible set contained
// in every preferred extension.
//
// It avoids enumerating preferred extensions (Dunne 2009): an admissible
// set lies in every preferred extension iff none of its attackers is
// credulously accepted. So we find the credulously accepted arguments CA
// (one SAT call per argument not already witnessed), keep those in CA with
// no attacker in CA (a conflict-free set), and shrink that to its largest
// self-defending subset.
func (f *Framework) Ideal(ctx context.Context) (Extension, error) {
	c := f.core(true)
	cl := c.complete()
	ca := make([]int8, c.n) // 0 unknown, 1 accepted, -1 not
	for i := range c.n {
		if ca[i] != 0 {
			continue
		}
		m, ok, err := solveOnce(ctx, c.nVars(), cl, []int{c.in(i)})
		if err != nil {
			return nil, err
		}
		if !ok {
			ca[i] = -1
			continue
		}
		for _, j := range c.inOf(m) {
			ca[j] = 1
		}
	}
	keep := make([]bool, c.n)
	for i := range c.n {
		keep[i] = ca[i] == 1
		for _, j := range c.attackers[i] {
			if ca[j] == 1 {
				keep[i] = false
			}
		}
	}
	attacks := make([][]int, c.n)
	for i := range c.n {
		for _, j := range c.attackers[i] {
			attacks[j] = append(attacks[j], i)
		}
	}
	for changed := true; changed; {
		changed = false
		hit := make([]bool, c.n)
		for i := range c.n {
			if keep[i] {
				for _, j := range attacks[i] {
					hit[j] = true
				}
			}
		}
		for i := range c.n {
			if !keep[i] {
				continue
			}
			for _, j := range c.attackers[i] {
				if !hit[j] {
					keep[i] = false
					changed = true
					break
				}
			}
		}
	}
	var s []int
	for i, k := range keep {
		if k {
			s = append(s, i)
		}
	}
	return c.ext(s), nil
}

// enumModels enumerates models of cl that differ in their IN sets.
func (c *core) enumModels(ctx context.Context, cl [][]int, fn func([]bool) bool) error {
	s := newSAT(cl, c.nVars())
	for {
		ok, err := s.solve(ctx)
		if err != nil || !ok {
			return err
		}
		m := s.model()
		if !fn(m) {
			return nil
		}
		block := c.blockIn(c.inOf(m))
		if len(block) == 0 {
			return nil // empty core: the only model has been seen
		}
		s.add(block)
	}
}

// maximise grows the complete set s (core indices) to a preferred one by
// repeatedly asking for a complete superset with one more IN argument.
func (c *core) maximise(ctx context.Context, cl [][]int, s []int) ([]int, error) {
	for {
		grow := c.someInOutside(s)
		if len(grow) == 0 {
			return s, nil
		}
		extra := append(c.unitsIn(s), grow)
		m, ok, err := solveOnce(ctx, c.nVars(), cl, extra...)
		if err != nil {
			return nil, err
		}
		if !ok {
			return s, nil
		}
		s = c.inOf(m)
	}
}

// preferred enumerates preferred extensions of the core (Cerutti et al.'s
// PrefSAT scheme): find a complete set not contained in any preferred set
// found so far, maximise it, report it, block its subsets. extra clauses
// (may be nil) restrict the starting points only.
func (c *core) preferred(ctx context.Context, extra [][]int, fn func([]int) bool) error {
	cl := c.complete()
	for _, e := range extra {
		if len(e) == 0 {
			return nil
		}
	}
	// The search for starting points only ever gains clauses, so one
	// incremental solver keeps its learned clauses across iterations; the
	// maximisation steps need temporary clauses and use fresh solvers.
	outer := newSAT(append(slices.Clone(cl), extra...), c.nVars())
	for {
		ok, err := outer.solve(ctx)
		if err != nil || !ok {
			return err
		}
		s, err := c.maximise(ctx, cl, c.inOf(outer.model()))
		if err != nil {
			return err
		}
		if !fn(s) {
			return nil
		}
		b := c.someInOutside(s)
		if len(b) == 0 {
			return nil // s is the whole core: nothing else can be maximal
		}
		outer.add(b)
	}
}

// skepticalPreferred decides whether core argument i is in every preferred
// extension: search for a preferred extension grown from a complete set
// without i; if it still lacks i, i is not skeptically accepted.
func (c *core) skepticalPreferred(ctx context.Context, i int) (bool, error) {
	accepted := true
	err := c.preferred(ctx, [][]int{{-c.in(i)}}, func(s []int) bool {
		accepted = slices.Contains(s, i)
		return accepted
	})
	return accepted, err
}

// rangeMaximal enumerates the IN sets of models of cl whose range (IN or
// OUT) is maximal w.r.t. set inclusion: semi-stable extensions for the
// complete encoding, stage extensions for the conflict-free one.
//
// For each candidate it shrinks the UNDEC set to a minimal one, enumerates
// all models with exactly that UNDEC set, then requires later candidates to
// decide at least one of those arguments.
func (c *core) rangeMaximal(ctx context.Context, cl [][]int, fn func([]int) bool) error {
	decided := func(i int) []int { return []int{c.in(i), c.out(i)} }
	outer := newSAT(cl, c.nVars()) // gains clauses only: keep it incremental
	for {
		ok, err := outer.solve(ctx)
		if err != nil || !ok {
			return err
		}
		u := c.undecOf(outer.model())
		for len(u) > 0 {
			extra := c.keepDecided(u)
			var more []int
			for _, i := range u {
				more = append(more, decided(i)...)
			}
			m2, ok, err := solveOnce(ctx, c.nVars(), cl, append(extra, more)...)
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			u = c.undecOf(m2)
		}
		exact := c.keepDecided(u)
		for _, i := range u {
			exact = append(exact, []int{-c.in(i)}, []int{-c.out(i)})
		}
		stop := false
		err = c.enumModels(ctx, append(slices.Clone(cl), exact...), func(m []bool) bool {
			stop = !fn(c.inOf(m))
			return !stop
		})
		if err != nil || stop || len(u) == 0 {
			return err
		}
		var b []int
		for _, i := range u {
			b = append(b, decided(i)...)
		}
		outer.add(b)
	}
}

// keepDecided returns clauses keeping every argument outside u in the range.
func (c *core) keepDecided(u []int) [][]int {
	mark := make([]bool, c.n)
	for _, i := range u {
		mark[i] = true
	}
	var cl [][]int
	for i := range c.n {
		if !mark[i] {
			cl = append(cl, []int{c.in(i), c.out(i)})
		}
	}
	return cl
}

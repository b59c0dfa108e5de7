package argue

import "context"

// RangeIsMaximal reports whether no extension candidate of sem (a
// conflict-free set for stage, a complete one for semi-stable) has a range
// strictly larger than e's. Tests use it to check certificates on
// frameworks too large for the definitions' brute force; it asks the SAT
// solver once, not the searches it checks.
func RangeIsMaximal(ctx context.Context, f *Framework, sem Semantics, e Extension) (bool, error) {
	c, cl := f.rangeEncoding(sem)
	inRange := f.rangeMarks(e)
	for _, a := range e {
		inRange[a] = true
	}
	rs := c.newRangeSearch(cl)
	var decided, undec []int
	for i, a := range c.glob {
		if inRange[a] {
			decided = append(decided, rs.r[i])
		} else {
			undec = append(undec, i)
		}
	}
	if len(undec) == 0 {
		return true, nil
	}
	rs.sv.add(rs.someDecided(undec))
	larger, err := rs.sv.solve(ctx, decided...)
	return !larger, err
}

// BruteForce is bruteForce for the external tests: the extensions of sem
// from the definitions over all subsets of f's arguments.
func BruteForce(f *Framework, sem Semantics) []Extension { return bruteForce(f, sem) }

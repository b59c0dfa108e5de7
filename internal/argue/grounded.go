package argue

// Label is the status of an argument in a labelling.
type Label uint8

// Labels of a (three-valued) argument labelling.
const (
	Undec Label = iota // neither accepted nor rejected
	In                 // accepted
	Out                // rejected: attacked by an accepted argument
)

func (l Label) String() string {
	switch l {
	case In:
		return "IN"
	case Out:
		return "OUT"
	default:
		return "UNDEC"
	}
}

// GroundedLabelling returns the grounded labelling in O(|A|+|R|) time: an
// argument is IN once all its attackers are OUT, OUT once one attacker is
// IN, and UNDEC if neither ever happens.
//
// It counts, per argument, the attackers not yet OUT and propagates from
// the unattacked arguments, so every attack is visited at most twice.
func (f *Framework) GroundedLabelling() []Label {
	n := f.Len()
	g := f.graph()
	lab := make([]Label, n)
	live := make([]int32, n) // attackers not yet labelled OUT
	for a := range n {
		live[a] = g.inOff[a+1] - g.inOff[a]
	}
	// The unattacked arguments are visited in index order rather than
	// queued, so the stack holds only arguments freed later: a framework
	// of millions of isolated arguments needs no queue of that size.
	var stack []int32
	label := func(a int32) {
		stack = append(stack, a)
		for len(stack) > 0 {
			a := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if lab[a] != Undec {
				continue
			}
			lab[a] = In
			for _, b := range g.attacks(int(a)) {
				if lab[b] != Undec {
					continue
				}
				lab[b] = Out
				for _, c := range g.attacks(int(b)) {
					if lab[c] != Undec {
						continue
					}
					live[c]--
					if live[c] == 0 {
						stack = append(stack, c)
					}
				}
			}
		}
	}
	for a := range n {
		if live[a] == 0 && lab[a] == Undec {
			label(int32(a))
		}
	}
	return lab
}

// Grounded returns the grounded extension (the least complete extension).
func (f *Framework) Grounded() Extension {
	return inSet(f.GroundedLabelling())
}

func inSet(lab []Label) Extension {
	size := 0 // counted first: growing by appends would leave ~2× garbage
	for _, l := range lab {
		if l == In {
			size++
		}
	}
	e := make(Extension, 0, size)
	for a, l := range lab {
		if l == In {
			e = append(e, a)
		}
	}
	return e
}

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
	lab := make([]Label, n)
	live := make([]int, n) // attackers not yet labelled OUT
	queue := make([]int, 0, n)
	for a := range n {
		live[a] = len(f.attackers[a])
		if live[a] == 0 {
			queue = append(queue, a)
		}
	}
	for len(queue) > 0 {
		a := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if lab[a] != Undec {
			continue
		}
		lab[a] = In
		for _, b := range f.attacks[a] {
			if lab[b] != Undec {
				continue
			}
			lab[b] = Out
			for _, c := range f.attacks[b] {
				if lab[c] != Undec {
					continue
				}
				live[c]--
				if live[c] == 0 {
					queue = append(queue, c)
				}
			}
		}
	}
	return lab
}

// Grounded returns the grounded extension (the least complete extension).
func (f *Framework) Grounded() Extension {
	return inSet(f.GroundedLabelling())
}

func inSet(lab []Label) Extension {
	e := Extension{}
	for a, l := range lab {
		if l == In {
			e = append(e, a)
		}
	}
	return e
}

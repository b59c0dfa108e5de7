// Package argue implements abstract argumentation frameworks in the sense of
// Dung (1995): arguments, a binary attack relation, and the standard
// extension-based semantics (grounded, complete, preferred, stable,
// semi-stable, stage and ideal) together with credulous and skeptical
// acceptance and enumeration of extensions.
//
// The grounded extension is computed in linear time and is used to shrink
// every harder task: all complete-based semantics agree with the grounded
// labelling on its IN and OUT arguments, so only the undecided remainder is
// handed to the SAT solver: a small in-package CDCL solver (see cdcl.go for
// why not gophersat) working on labelling encodings, with CEGAR-style loops
// for the maximality-based semantics.
//
// Every potentially exponential operation takes a context.Context; when the
// context ends the operation returns an error wrapping both ErrCutOff and the
// context's error.
package argue

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ErrCutOff is wrapped by every error returned because a search was stopped
// by its context before it finished. Results returned alongside it (for
// example a count) are lower bounds.
var ErrCutOff = errors.New("argue: search cut off before it finished")

// Framework is a Dung argumentation framework. Arguments are identified by
// dense int indices 0..Len()-1 in insertion order; each also has a unique
// name. Attacks are kept in both directions so that attackers and attacked
// arguments are both O(degree) to visit.
//
// A Framework is not safe for concurrent mutation; concurrent reads (all
// semantics methods) are safe once construction is finished.
type Framework struct {
	names     []string
	index     map[string]int
	attacks   [][]int // attacks[a] = arguments attacked by a
	attackers [][]int // attackers[a] = arguments attacking a
	edges     map[[2]int]struct{}
	nAttacks  int
	numbered  int // if > 0, names are implicitly "1".."numbered" and names/index are unused
}

// New returns an empty framework.
func New() *Framework {
	return &Framework{index: map[string]int{}, edges: map[[2]int]struct{}{}}
}

// NewNumbered returns a framework with n arguments named "1".."n", the
// naming used by the ICCMA 2023 numeric format. The names are implicit
// (computed on demand) so that a large numeric instance costs no per-name
// memory.
func NewNumbered(n int) *Framework {
	f := New()
	f.numbered = n
	f.attacks = make([][]int, n)
	f.attackers = make([][]int, n)
	return f
}

// materialise turns implicit numeric names into explicit ones before a
// named argument is added.
func (f *Framework) materialise() {
	if f.numbered == 0 {
		return
	}
	f.names = make([]string, f.numbered)
	for i := range f.names {
		f.names[i] = strconv.Itoa(i + 1)
		f.index[f.names[i]] = i
	}
	f.numbered = 0
}

// AddArgument adds an argument with the given name and returns its index.
// Names must be non-empty and unique.
func (f *Framework) AddArgument(name string) (int, error) {
	f.materialise()
	if name == "" {
		return 0, errors.New("argue: argument name is empty")
	}
	if _, dup := f.index[name]; dup {
		return 0, fmt.Errorf("argue: argument %q declared twice", name)
	}
	i := len(f.names)
	f.names = append(f.names, name)
	f.index[name] = i
	f.attacks = append(f.attacks, nil)
	f.attackers = append(f.attackers, nil)
	return i, nil
}

// AddAttack records that argument from attacks argument to. Adding an
// attack that already exists is a no-op, so parsers may feed duplicates.
func (f *Framework) AddAttack(from, to int) error {
	if from < 0 || from >= f.Len() || to < 0 || to >= f.Len() {
		return fmt.Errorf("argue: attack %d -> %d refers to an argument outside 0..%d", from, to, f.Len()-1)
	}
	key := [2]int{from, to}
	if _, ok := f.edges[key]; ok {
		return nil
	}
	f.edges[key] = struct{}{}
	f.attacks[from] = append(f.attacks[from], to)
	f.attackers[to] = append(f.attackers[to], from)
	f.nAttacks++
	return nil
}

// AddAttackNames is AddAttack by argument name.
func (f *Framework) AddAttackNames(from, to string) error {
	a, ok := f.Index(from)
	if !ok {
		return fmt.Errorf("argue: attack (%s,%s): unknown argument %q", from, to, from)
	}
	b, ok := f.Index(to)
	if !ok {
		return fmt.Errorf("argue: attack (%s,%s): unknown argument %q", from, to, to)
	}
	return f.AddAttack(a, b)
}

// Len returns the number of arguments.
func (f *Framework) Len() int { return len(f.attacks) }

// NumAttacks returns the number of distinct attacks.
func (f *Framework) NumAttacks() int { return f.nAttacks }

// Name returns the name of argument i.
func (f *Framework) Name(i int) string {
	if f.numbered > 0 {
		return strconv.Itoa(i + 1)
	}
	return f.names[i]
}

// Index returns the index of the argument with the given name.
func (f *Framework) Index(name string) (int, bool) {
	if f.numbered > 0 {
		// Only canonical decimal forms name an argument: "01" does not.
		i, err := strconv.Atoi(name)
		if err != nil || i < 1 || i > f.numbered || strconv.Itoa(i) != name {
			return 0, false
		}
		return i - 1, true
	}
	i, ok := f.index[name]
	return i, ok
}

// Attacks returns the arguments attacked by a. The slice must not be modified.
func (f *Framework) Attacks(a int) []int { return f.attacks[a] }

// Attackers returns the arguments attacking a. The slice must not be modified.
func (f *Framework) Attackers(a int) []int { return f.attackers[a] }

// Attacked reports whether from attacks to.
func (f *Framework) Attacked(from, to int) bool {
	_, ok := f.edges[[2]int{from, to}]
	return ok
}

// Extension is a set of arguments, as sorted argument indices.
type Extension []int

// Contains reports whether the extension contains argument a.
func (e Extension) Contains(a int) bool {
	_, ok := slices.BinarySearch(e, a)
	return ok
}

// Names returns the names of the arguments of e, in index order.
func (f *Framework) Names(e Extension) []string {
	out := make([]string, len(e))
	for i, a := range e {
		out[i] = f.Name(a)
	}
	return out
}

// String renders e as {name,...} for diagnostics.
func (f *Framework) String(e Extension) string {
	return "{" + strings.Join(f.Names(e), ",") + "}"
}

// IsConflictFree reports whether no member of e attacks a member of e.
func (f *Framework) IsConflictFree(e Extension) bool {
	for _, a := range e {
		for _, b := range f.attacks[a] {
			if e.Contains(b) {
				return false
			}
		}
	}
	return true
}

// IsAdmissible reports whether e is conflict-free and defends each member.
func (f *Framework) IsAdmissible(e Extension) bool {
	if !f.IsConflictFree(e) {
		return false
	}
	attacked := f.rangeMarks(e)
	for _, a := range e {
		for _, b := range f.attackers[a] {
			if !attacked[b] {
				return false
			}
		}
	}
	return true
}

// IsComplete reports whether e is admissible and contains every argument it
// defends.
func (f *Framework) IsComplete(e Extension) bool {
	if !f.IsAdmissible(e) {
		return false
	}
	attacked := f.rangeMarks(e)
	for a := range f.Len() {
		if e.Contains(a) {
			continue
		}
		defended := true
		for _, b := range f.attackers[a] {
			if !attacked[b] {
				defended = false
				break
			}
		}
		if defended {
			return false
		}
	}
	return true
}

// IsStable reports whether e is conflict-free and attacks every argument
// outside it.
func (f *Framework) IsStable(e Extension) bool {
	if !f.IsConflictFree(e) {
		return false
	}
	attacked := f.rangeMarks(e)
	for a := range f.Len() {
		if !e.Contains(a) && !attacked[a] {
			return false
		}
	}
	return true
}

// rangeMarks marks the arguments attacked by e.
func (f *Framework) rangeMarks(e Extension) []bool {
	attacked := make([]bool, f.Len())
	for _, a := range e {
		for _, b := range f.attacks[a] {
			attacked[b] = true
		}
	}
	return attacked
}

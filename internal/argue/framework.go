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
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// ErrCutOff is wrapped by every error returned because a search was stopped
// by its context before it finished. Results returned alongside it (for
// example a count) are lower bounds.
var ErrCutOff = errors.New("argue: search cut off before it finished")

// Framework is a Dung argumentation framework. Arguments are identified by
// dense int indices 0..Len()-1 in insertion order; each also has a unique
// name.
//
// Attacks are stored compactly, in both directions, as sorted adjacency
// arrays of int32 (compressed sparse rows): 8 bytes per argument and 8 per
// attack, so that a framework declaring millions of arguments costs tens of
// megabytes, not hundreds (a slice per argument costs 48 bytes before it
// holds anything). Attacks added are collected and the arrays are (re)built
// on the first read after a change.
//
// A Framework is not safe for concurrent mutation; concurrent reads (all
// semantics methods) are safe once construction is finished.
type Framework struct {
	names    []string
	index    map[string]int
	numbered int // if > 0, names are implicitly "1".."numbered" and names/index are unused
	n        int
	pending  []int32 // from, to pairs added since the arrays were last built (duplicates allowed)
	// compactAt is the length of pending at which its duplicates are
	// dropped (see AddAttack); 0 until the first compaction.
	compactAt int

	g  atomic.Pointer[graph] // nil until built, and after every change
	mu sync.Mutex            // serialises building g
}

// graph is the frozen attack relation.
type graph struct {
	outOff, out []int32 // attacks of a: out[outOff[a]:outOff[a+1]], sorted, distinct
	inOff, in   []int32 // attackers of a, likewise
}

func (g *graph) attacks(a int) []int32   { return g.out[g.outOff[a]:g.outOff[a+1]] }
func (g *graph) attackers(a int) []int32 { return g.in[g.inOff[a]:g.inOff[a+1]] }

// New returns an empty framework.
func New() *Framework {
	return &Framework{index: map[string]int{}}
}

// NewNumbered returns a framework with n arguments named "1".."n", the
// naming used by the ICCMA 2023 numeric format. The names are implicit
// (computed on demand) so that a large numeric instance costs no per-name
// memory.
func NewNumbered(n int) *Framework {
	f := New()
	f.numbered = n
	f.n = n
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
		return 0, fmt.Errorf("argue: argument %s declared twice", Quote(name))
	}
	i := len(f.names)
	f.names = append(f.names, name)
	f.index[name] = i
	f.n++
	f.changed()
	return i, nil
}

// AddAttack records that argument from attacks argument to. Adding an
// attack that already exists is a no-op, so parsers may feed duplicates.
func (f *Framework) AddAttack(from, to int) error {
	if from < 0 || from >= f.n || to < 0 || to >= f.n {
		return fmt.Errorf("argue: attack %d -> %d refers to an argument outside 0..%d", from, to, f.n-1)
	}
	f.pending = append(f.pending, int32(from), int32(to))
	f.changed()
	if len(f.pending) >= max(f.compactAt, compactMin, 4*f.n) {
		f.compact()
	}
	return nil
}

// compactMin is the fewest pending pair elements worth compacting: 8 MB.
const compactMin = 1 << 21

// compact drops the duplicates from pending, so that memory follows the
// distinct attacks and not the lines of a file that repeats them (20
// million copies of a thousand attacks took 0.77 GB). It runs when pending
// has doubled since the last compaction, and is not smaller than four
// entries per argument (a compaction costs O(n) beside the attacks):
// without duplicates that is about one more build of the rows, spread over
// the additions. The rows built are those graph builds (buildRows).
func (f *Framework) compact() {
	off, adj := buildRows(f.n, f.pending, 0)
	p := f.pending[:0]
	for a := range f.n {
		for _, b := range adj[off[a]:off[a+1]] {
			p = append(p, int32(a), b)
		}
	}
	if 2*len(p) < cap(p)/2 {
		// Most were duplicates: give the rest of the array back.
		p = slices.Clip(slices.Clone(p))
	}
	f.pending = p
	f.compactAt = 2 * len(p)
}

// changed drops the built arrays; the next read rebuilds them, keeping the
// attacks they held.
func (f *Framework) changed() {
	if g := f.g.Load(); g != nil {
		f.g.Store(nil)
		for a := range len(g.outOff) - 1 {
			for _, b := range g.attacks(a) {
				f.pending = append(f.pending, int32(a), b)
			}
		}
	}
}

// graph returns the attack arrays, building them if needed.
func (f *Framework) graph() *graph {
	if g := f.g.Load(); g != nil {
		return g
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if g := f.g.Load(); g != nil {
		return g
	}
	g := &graph{}
	g.outOff, g.out = buildRows(f.n, f.pending, 0)
	g.inOff, g.in = buildRows(f.n, f.pending, 1)
	f.pending = nil
	f.g.Store(g)
	return g
}

// buildRows turns the pairs into sorted, duplicate-free adjacency rows
// keyed by the pair's element key (0: from, 1: to) by counting sort.
func buildRows(n int, pairs []int32, key int) (off, adj []int32) {
	off = make([]int32, n+1)
	for i := key; i < len(pairs); i += 2 {
		off[pairs[i]+1]++
	}
	for a := range n {
		off[a+1] += off[a]
	}
	adj = make([]int32, len(pairs)/2)
	// Fill each row from its end, moving off[a+1] down to the row's start;
	// then off[a+1] holds start(a), which shifting by one turns into off.
	for i := len(pairs) - 2; i >= 0; i -= 2 {
		a := pairs[i+key]
		off[a+1]--
		adj[off[a+1]] = pairs[i+1-key]
	}
	copy(off, off[1:])
	off[n] = int32(len(adj))
	// Sort and deduplicate each row, compacting in place.
	w := int32(0)
	for a := range n {
		row := adj[off[a]:off[a+1]]
		slices.Sort(row)
		row = slices.Compact(row)
		off[a] = w
		w += int32(copy(adj[w:], row))
	}
	off[n] = w
	return off, adj[:w:w]
}

// AddAttackNames is AddAttack by argument name.
func (f *Framework) AddAttackNames(from, to string) error {
	a, ok := f.Index(from)
	if !ok {
		return fmt.Errorf("argue: attack %s -> %s: unknown argument %s", Quote(from), Quote(to), Quote(from))
	}
	b, ok := f.Index(to)
	if !ok {
		return fmt.Errorf("argue: attack %s -> %s: unknown argument %s", Quote(from), Quote(to), Quote(to))
	}
	return f.AddAttack(a, b)
}

// Len returns the number of arguments.
func (f *Framework) Len() int { return f.n }

// NumAttacks returns the number of distinct attacks.
func (f *Framework) NumAttacks() int { return len(f.graph().out) }

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

// Attacks returns the arguments attacked by a, in increasing order.
func (f *Framework) Attacks(a int) []int { return ints(f.graph().attacks(a)) }

// Attackers returns the arguments attacking a, in increasing order.
func (f *Framework) Attackers(a int) []int { return ints(f.graph().attackers(a)) }

func ints(s []int32) []int {
	out := make([]int, len(s))
	for i, x := range s {
		out[i] = int(x)
	}
	return out
}

// Attacked reports whether from attacks to.
func (f *Framework) Attacked(from, to int) bool {
	if from < 0 || from >= f.n || to < 0 || to >= f.n {
		return false
	}
	_, ok := slices.BinarySearch(f.graph().attacks(from), int32(to))
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
	g := f.graph()
	for _, a := range e {
		for _, b := range g.attacks(a) {
			if e.Contains(int(b)) {
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
	g := f.graph()
	for _, a := range e {
		for _, b := range g.attackers(a) {
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
	g := f.graph()
	for a := range f.Len() {
		if e.Contains(a) {
			continue
		}
		defended := true
		for _, b := range g.attackers(a) {
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
	g := f.graph()
	for _, a := range e {
		for _, b := range g.attacks(a) {
			attacked[b] = true
		}
	}
	return attacked
}

// quoteMax is how many bytes of a name or a line from an input file an
// error quotes. Files may hold names or lines of megabytes (a name is
// any token, a corrupt file one line), and an error repeating one in full
// buries what is wrong under it: a 1 MB name made 3 MB of standard error.
const quoteMax = 64

// Quote quotes s for an error message as %q does (control characters
// escaped, so a name cannot drive the terminal), cut after quoteMax bytes
// at a character boundary with its full length said.
func Quote(s string) string {
	if len(s) <= quoteMax {
		return strconv.Quote(s)
	}
	cut := quoteMax
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q… (%d bytes)", s[:cut], len(s))
}

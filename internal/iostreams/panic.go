package iostreams

import "sync"

// A panic in a goroutine ends the process without running the deferred
// calls of the others: the terminal's restore, deferred where its mode was
// changed (QuietInput), never ran, and the shell it returned to echoed
// nothing and showed a paste's marks. A goroutine that draws on or reads
// the terminal defers RestoreOnPanic first; what changed the terminal
// registers its restore here.

// panicRestores are the restores of what has changed the terminal; copies
// of the streams (a writer wrapped around Out) share them.
type panicRestores struct {
	mu   sync.Mutex
	next int
	fns  map[int]func()
}

// onPanic registers restore, to be called if a goroutine panics, until
// remove is called.
func (s *IOStreams) onPanic(restore func()) (remove func()) {
	p := s.panics
	if p == nil {
		return func() {}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fns == nil {
		p.fns = map[int]func(){}
	}
	id := p.next
	p.next++
	p.fns[id] = restore
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		delete(p.fns, id)
	}
}

// RestoreTerminal undoes, at once, what has changed the terminal (the quiet
// input mode, the paste mode): for a goroutine that is about to end the
// process.
func (s *IOStreams) RestoreTerminal() {
	if s == nil || s.panics == nil {
		return
	}
	p := s.panics
	p.mu.Lock()
	fns := make([]func(), 0, len(p.fns))
	for _, f := range p.fns {
		fns = append(fns, f)
	}
	p.mu.Unlock()
	// A restore removes itself: called without the lock.
	for _, f := range fns {
		f()
	}
}

// RestoreOnPanic, deferred first in a goroutine, restores the terminal
// when the goroutine panics, then panics again with the same value: the
// process ends as it would have, with the panic and its stack on standard
// error, on a terminal that echoes again. A nil s restores nothing.
func (s *IOStreams) RestoreOnPanic() {
	if r := recover(); r != nil {
		s.RestoreTerminal()
		panic(r)
	}
}

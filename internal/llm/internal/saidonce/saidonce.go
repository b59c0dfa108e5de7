// Package saidonce remembers what a provider has said once (an unknown
// stop reason of a model), within a bound: the keys come from servers,
// and a hostile one that sends a new word with every reply must not grow
// a provider's memory, or its log, without end.
package saidonce

import (
	"fmt"
	"strings"
	"sync"
)

// Max is how many keys a Set remembers: far more than the unknown words
// any real server sends, few enough that a hostile one costs nothing.
const Max = 32

// Verdict is what to say of a key.
type Verdict int

// Verdicts.
const (
	// Said: the key was said before, or the bound was reached and said
	// so: say nothing.
	Said Verdict = iota
	// New: the key is new and now remembered: say it.
	New
	// Full: the key is new but the Set holds Max keys already: say, this
	// once, that further new keys will not be said.
	Full
)

// Set is a bounded set of keys said. It is safe for concurrent use; the
// zero value is empty.
type Set struct {
	mu   sync.Mutex
	keys map[string]struct{}
	full bool // Full was returned
}

// Add adds key, and tells what to say of it: New for each of the first
// Max keys, the first time each comes; Full once, for the first key that
// does not fit; Said otherwise. Callers pass a key cut to a bounded
// length, so that the Set's size is bounded too.
func (s *Set) Add(key string) Verdict {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.keys[key]; ok {
		return Said
	}
	if len(s.keys) < Max {
		if s.keys == nil {
			s.keys = map[string]struct{}{}
		}
		s.keys[key] = struct{}{}
		return New
	}
	if s.full {
		return Said
	}
	s.full = true
	return Full
}

// UnknownReason is the warning for a reply a server ended with a reason
// Parley does not know (field "finish_reason" or "stop_reason"; reason
// cleaned and cut), read whole as for asFor: once per key (model and
// reason), "" when nothing is to be said. Both providers word it alike.
func (s *Set) UnknownReason(key, field, reason, asFor string) string {
	switch s.Add(key) {
	case New:
		return fmt.Sprintf("the server ended a reply with %s %q, which Parley does not know: the reply is read as whole, as for %s", field, reason, asFor)
	case Full:
		return fmt.Sprintf("the server ended a reply with %s %q, which Parley does not know, after %d others: the reply is read as whole, as for %s, and more unknown %ss are not said",
			field, reason, Max, asFor, strings.ReplaceAll(field, "_", " "))
	}
	return ""
}

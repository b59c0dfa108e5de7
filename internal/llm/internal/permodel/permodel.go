// Package permodel keeps what a provider has learned, per model, of how a
// server takes its calls (the fields it refuses, how its replies carry
// reasoning), so that the next call to that model is sent right the first
// time.
package permodel

import "sync"

// Map holds a value per model name, and a default for the models not seen
// yet. It is safe for concurrent use; the zero value holds zero values.
type Map[T any] struct {
	mu     sync.Mutex
	def    T
	models map[string]T
}

// New returns a Map whose default is def.
func New[T any](def T) *Map[T] { return &Map[T]{def: def} }

// Get returns model's value, or the default for a model not set.
func (m *Map[T]) Get(model string) T {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.models[model]; ok {
		return v
	}
	return m.def
}

// Set sets model's value and, when update is not nil, the default to
// update(default), in one step: what one model taught about the server
// (not the model) is the first guess for the others. It returns the
// model's value before, which tells whether this call taught anything
// new, so that what was learned is said once even when calls made at
// the same time learn it together.
func (m *Map[T]) Set(model string, v T, update func(def T) T) (old T) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.models == nil {
		m.models = map[string]T{}
	}
	old, ok := m.models[model]
	if !ok {
		old = m.def
	}
	m.models[model] = v
	if update != nil {
		m.def = update(m.def)
	}
	return old
}

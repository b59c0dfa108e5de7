// Package memstore keeps debates in memory. It is the reference
// implementation of debate.Store, and the store the engine's unit tests use;
// nothing it holds survives the process.
package memstore

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"sync"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store"
)

// Store is an in-memory debate.Store. The zero value is not usable; call New.
type Store struct {
	mu      sync.RWMutex
	debates map[string]*entry
	closed  bool
	notify  store.Notifier
}

type entry struct {
	events  []debate.Event
	summary debate.Summary
	lease   *debate.Lease
}

// view is the summary as Get and List return it, with the lease.
func (d *entry) view() debate.Summary {
	sum := d.summary
	sum.Unpriced = slices.Clone(sum.Unpriced) // later appends must not write into what a caller holds
	if d.lease != nil {
		l := *d.lease
		sum.Lease = &l
	}
	return sum
}

var _ debate.Store = (*Store)(nil)

// New returns an empty store.
func New() *Store {
	return &Store{debates: make(map[string]*entry)}
}

// Append implements debate.Store.
func (s *Store) Append(ctx context.Context, debateID string, events ...debate.Event) (int64, error) {
	if err := store.Validate(debateID, events); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("append to debate %q: %w", debateID, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, fmt.Errorf("append to debate %q: %w", debateID, store.ErrClosed)
	}
	d, exists := s.debates[debateID]
	if err := store.CheckCreated(debateID, exists, events); err != nil {
		return 0, err
	}
	if !exists && len(events) == 0 {
		return 0, fmt.Errorf("append to debate %q: %w", debateID, debate.ErrNotFound)
	}
	if !exists {
		d = &entry{}
		s.debates[debateID] = d
	}
	stored := store.Prepare(debateID, int64(len(d.events)), events)
	d.events = append(d.events, stored...)
	for _, e := range stored {
		debate.Project(&d.summary, e)
	}
	if len(stored) > 0 {
		s.notify.Notify(debateID)
	}
	return int64(len(d.events)), nil
}

// Load implements debate.Store.
func (s *Store) Load(ctx context.Context, debateID string, afterSeq int64) ([]debate.Event, error) {
	return s.LoadN(ctx, debateID, afterSeq, 0)
}

// LoadN implements debate.Store.
func (s *Store) LoadN(ctx context.Context, debateID string, afterSeq int64, n int) ([]debate.Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("load debate %q: %w", debateID, err)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, fmt.Errorf("load debate %q: %w", debateID, store.ErrClosed)
	}
	if !debate.ValidID(debateID) {
		return nil, debate.NoSuchID("load debate", debateID)
	}
	d, ok := s.debates[debateID]
	if !ok {
		return nil, fmt.Errorf("load debate %q: %w", debateID, debate.ErrNotFound)
	}
	// Seq n is at index n-1, so the tail after afterSeq is a plain slice.
	from := min(max(afterSeq, 0), int64(len(d.events)))
	to := int64(len(d.events))
	if n > 0 {
		to = min(to, from+int64(n))
	}
	out := make([]debate.Event, 0, to-from)
	for _, e := range d.events[from:to] {
		// The caller owns what it loads; the log must not change with it.
		e.Data = append(json.RawMessage(nil), e.Data...)
		out = append(out, e)
	}
	return out, nil
}

// Subscribe implements debate.Store. Other processes cannot append to this
// store, so it never polls.
func (s *Store) Subscribe(ctx context.Context, debateID string, afterSeq int64) iter.Seq2[debate.Event, error] {
	return store.Follow(ctx, s.Load, &s.notify, debateID, afterSeq, 0)
}

// Get implements debate.Store.
func (s *Store) Get(ctx context.Context, debateID string) (debate.Summary, error) {
	if err := ctx.Err(); err != nil {
		return debate.Summary{}, fmt.Errorf("get debate %q: %w", debateID, err)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return debate.Summary{}, fmt.Errorf("get debate %q: %w", debateID, store.ErrClosed)
	}
	if !debate.ValidID(debateID) {
		return debate.Summary{}, debate.NoSuchID("get debate", debateID)
	}
	d, ok := s.debates[debateID]
	if !ok {
		return debate.Summary{}, fmt.Errorf("get debate %q: %w", debateID, debate.ErrNotFound)
	}
	return d.view(), nil
}

// List implements debate.Store.
func (s *Store) List(ctx context.Context, f debate.ListFilter) ([]debate.Summary, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("list debates: %w", err)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, fmt.Errorf("list debates: %w", store.ErrClosed)
	}
	var out []debate.Summary
	for _, d := range s.debates {
		if store.MatchFilter(d.summary, f) {
			out = append(out, d.view())
		}
	}
	slices.SortFunc(out, func(a, b debate.Summary) int {
		if store.Newer(a, b) {
			return -1
		}
		if store.Newer(b, a) {
			return 1
		}
		return 0
	})
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[:f.Limit]
	}
	return out, nil
}

// Count implements debate.Store.
func (s *Store) Count(ctx context.Context) ([]debate.Count, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("count debates: %w", err)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, fmt.Errorf("count debates: %w", store.ErrClosed)
	}
	sums := make([]debate.Summary, 0, len(s.debates))
	for _, d := range s.debates {
		sums = append(sums, d.summary)
	}
	return store.Tally(sums), nil
}

// lease runs fn on a debate's entry under the store's lock.
func (s *Store) lease(ctx context.Context, debateID string, fn func(d *entry) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("lease of debate %q: %w", debateID, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return fmt.Errorf("lease of debate %q: %w", debateID, store.ErrClosed)
	}
	if !debate.ValidID(debateID) {
		return debate.NoSuchID("lease of debate", debateID)
	}
	d, ok := s.debates[debateID]
	if !ok {
		return fmt.Errorf("lease of debate %q: %w", debateID, debate.ErrNotFound)
	}
	return fn(d)
}

// AcquireLease implements debate.Store.
func (s *Store) AcquireLease(ctx context.Context, debateID string, owner debate.LeaseOwner, ttl time.Duration, steal string) (debate.Lease, error) {
	var l debate.Lease
	err := s.lease(ctx, debateID, func(d *entry) error {
		var err error
		if l, err = store.Grant(debateID, d.lease, owner, ttl, steal, time.Now()); err == nil {
			d.lease = &l
		}
		return err
	})
	return l, err
}

// RenewLease implements debate.Store.
func (s *Store) RenewLease(ctx context.Context, debateID, ownerID string, ttl time.Duration) (debate.Lease, error) {
	var l debate.Lease
	err := s.lease(ctx, debateID, func(d *entry) error {
		var err error
		if l, err = store.Renew(d.lease, ownerID, ttl, time.Now()); err == nil {
			d.lease = &l
		}
		return err
	})
	return l, err
}

// ReleaseLease implements debate.Store.
func (s *Store) ReleaseLease(ctx context.Context, debateID, ownerID string) error {
	return s.lease(ctx, debateID, func(d *entry) error {
		if d.lease != nil && d.lease.Owner.ID == ownerID {
			d.lease = nil
		}
		return nil
	})
}

// Delete implements debate.Store.
func (s *Store) Delete(ctx context.Context, debateID string) error {
	return s.lease(ctx, debateID, func(*entry) error {
		delete(s.debates, debateID)
		s.notify.Notify(debateID)
		return nil
	})
}

// Close implements debate.Store. It drops the debates and ends the
// subscriptions; closing twice is harmless.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.debates = nil
	s.notify.Close()
	return nil
}

// Package store holds what every implementation of [debate.Store] shares: the
// validation of appended events, the created-first rule, and the Subscribe
// loop built on Load plus a wake-up signal. The implementations live in
// subpackages (memstore, sqlite, postgres) and all run the conformance suite
// in storetest; open picks SQLite or PostgreSQL from a location.
//
// The engine sees only the debate.Store interface, so it contains no SQL. The
// SQL stores share a shape a further backend would follow:
//
//   - the same tables (events as the source of truth keyed by (debate_id,
//     seq), debates and turns as projections written in the append's
//     transaction, with debate.Project computing the summary, every field
//     of it stored, so that Get and List read one row per debate);
//     internal/sqlsum holds the debates table's columns and what else
//     their SQL shares;
//   - appends to one debate serialized (SQLite's write lock; PostgreSQL's
//     SELECT ... FOR UPDATE on the debates row), with the primary key on
//     events as the backstop against duplicates;
//   - subscribers woken by the Notifier for this process's appends, and for
//     other processes' by polling (SQLite) or LISTEN/NOTIFY (PostgreSQL);
//   - storetest.Run with storetest.SharedDatabase, and TimePrecision when
//     times are kept coarser than nanoseconds (timestamptz: microseconds).
package store

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/parleyhq/parley/internal/debate"
)

// ErrClosed is returned by a store's methods after Close.
var ErrClosed = errors.New("store closed")

// Validate checks a batch of events before any of it is stored, so that a bad
// event fails the whole append instead of leaving a log the fold or the
// projections cannot read later. Event.Seq is ignored (the store assigns it);
// Event.Debate may be empty or must equal debateID.
func Validate(debateID string, events []debate.Event) error {
	_, err := ValidateDecoded(debateID, events)
	return err
}

// ValidateDecoded is Validate that also returns the payloads it decoded to
// check them, one per event (a pointer to the payload's type; nil for the
// types it does not decode), for the store's projections to use instead of
// decoding them again (see debate.ProjectDecoded).
func ValidateDecoded(debateID string, events []debate.Event) ([]debate.Payload, error) {
	if debateID == "" {
		return nil, errors.New("append: empty debate id")
	}
	if !debate.ValidID(debateID) {
		// No debate has such an id: creating one is refused as a bad id,
		// anything else is appended to a debate that is not there.
		if len(events) > 0 && events[0].Type == debate.TypeCreated {
			return nil, fmt.Errorf("append to debate %q: %w", debate.ClipID(debateID), debate.ErrInvalidID)
		}
		return nil, debate.NoSuchID("append to debate", debateID)
	}
	decoded := make([]debate.Payload, len(events))
	for i, e := range events {
		if e.Debate != "" && e.Debate != debateID {
			return nil, fmt.Errorf("append to debate %q: event %d belongs to debate %q", debateID, i, e.Debate)
		}
		if e.Type == "" {
			return nil, fmt.Errorf("append to debate %q: event %d has no type", debateID, i)
		}
		if y := e.Time.Year(); y < 1 || y > 9999 {
			// Stores keep times as fixed-width text or SQL timestamps; years
			// outside 1..9999 fit neither and are a bug in the caller anyway.
			return nil, fmt.Errorf("append to debate %q: event %d (%s) has time %v outside years 1-9999", debateID, i, e.Type, e.Time)
		}
		// The projections decode these payloads; reject one that does not
		// decode now rather than silently project a blank summary or turn.
		var p debate.Payload
		switch e.Type {
		case debate.TypeCreated:
			p = &debate.Created{}
		case debate.TypePhase:
			p = &debate.PhaseChanged{}
		case debate.TypeTurnStarted:
			p = &debate.TurnStarted{}
		case debate.TypeTurnCompleted:
			p = &debate.TurnCompleted{}
		}
		if p == nil {
			if !json.Valid(e.Data) {
				return nil, fmt.Errorf("append to debate %q: event %d (%s) data is not valid JSON", debateID, i, e.Type)
			}
			continue
		}
		// Unmarshal checks the whole text is valid JSON first: one pass
		// fewer over a completed turn's text than json.Valid before it.
		if err := json.Unmarshal(e.Data, p); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return nil, fmt.Errorf("append to debate %q: event %d (%s) data is not valid JSON: %w", debateID, i, e.Type, err)
			}
			return nil, fmt.Errorf("append to debate %q: event %d (%s): %w", debateID, i, e.Type, err)
		}
		decoded[i] = p
	}
	return decoded, nil
}

// CheckCreated applies the created-first rule to a batch about to be appended
// to a debate that exists or not: a new debate must start with exactly one
// TypeCreated event, and an existing one takes none.
func CheckCreated(debateID string, exists bool, events []debate.Event) error {
	for i, e := range events {
		switch {
		case i == 0 && !exists && e.Type != debate.TypeCreated:
			return fmt.Errorf("append %s to debate %q: %w (its first event must be %s)", e.Type, debateID, debate.ErrNotFound, debate.TypeCreated)
		case e.Type == debate.TypeCreated && (exists || i > 0):
			return fmt.Errorf("append %s to debate %q: %w", e.Type, debateID, debate.ErrExists)
		}
	}
	return nil
}

// Prepare returns a copy of events ready to store: Debate set, Seq numbered
// from lastSeq+1, Time in UTC without a monotonic reading, and Data copied so
// that the caller may reuse its buffers.
func Prepare(debateID string, lastSeq int64, events []debate.Event) []debate.Event {
	out := make([]debate.Event, len(events))
	for i, e := range events {
		out[i] = debate.Event{
			Debate: debateID,
			Seq:    lastSeq + int64(i) + 1,
			Time:   e.Time.UTC().Round(0),
			Type:   e.Type,
			Data:   append(json.RawMessage(nil), e.Data...),
		}
	}
	return out
}

// MatchFilter reports whether a summary passes a list filter, for stores that
// filter in Go.
func MatchFilter(s debate.Summary, f debate.ListFilter) bool {
	return (f.Format == "" || s.Format == f.Format) &&
		(f.Status == "" || s.Status == f.Status) &&
		(len(f.Statuses) == 0 || slices.Contains(f.Statuses, s.Status)) &&
		(f.Topic == "" || s.Topic == f.Topic) &&
		(f.After == nil || f.After.Before(s))
}

// Tally groups summaries as Store.Count does, for stores that count in Go.
func Tally(sums []debate.Summary) []debate.Count {
	type key struct {
		status debate.Status
		format string
	}
	groups := map[key]*debate.Count{}
	for _, s := range sums {
		k := key{s.Status, s.Format}
		c := groups[k]
		if c == nil {
			c = &debate.Count{Status: s.Status, Format: s.Format}
			groups[k] = c
		}
		c.Debates++
		c.Turns += s.Turns
		c.CostUSD += s.CostUSD
	}
	out := make([]debate.Count, 0, len(groups))
	for _, c := range groups {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b debate.Count) int {
		return cmp.Or(cmp.Compare(a.Status, b.Status), cmp.Compare(a.Format, b.Format))
	})
	return out
}

// Newer reports whether a sorts before b in a List: newest Created first, and
// by descending ID among equal times so that the order is total.
func Newer(a, b debate.Summary) bool {
	if !a.Created.Equal(b.Created) {
		return a.Created.After(b.Created)
	}
	return a.ID > b.ID
}

// OnlyDeltas reports whether a batch holds streamed text only, which the
// debate.Store contract lets a store commit without waiting for it to be
// durable.
func OnlyDeltas(events []debate.Event) bool {
	for _, e := range events {
		if e.Type != debate.TypeTurnDelta {
			return false
		}
	}
	return len(events) > 0
}

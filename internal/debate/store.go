package debate

import (
	"context"
	"errors"
	"iter"
	"time"
)

// Store keeps debates' event logs. The log is the source of truth; whatever
// else a store keeps (summaries for List, per-turn rows) is a projection of it,
// updated in the same transaction as the append.
//
// Contract (checked by the conformance suite in store/storetest):
//   - Append is atomic: all the events are stored or none is. It assigns each
//     event the next sequence number of its debate (1, 2, ... without gaps) and
//     returns the last one. When Append returns nil the events are durable,
//     with one allowance: a batch of only TypeTurnDelta events (streamed text,
//     for live views) may be kept durable against a crash of the process only,
//     and against power loss once a later append has returned, so that a
//     store need not sync the disk for every delta.
//   - The first event of a debate must be of type TypeCreated; appending
//     anything else to an unknown debate fails with ErrNotFound, and a second
//     TypeCreated fails with ErrExists.
//   - Load returns the events with Seq > afterSeq, in order. An unknown debate
//     is ErrNotFound.
//   - Subscribe yields the events with Seq > afterSeq, then each new event as
//     it is appended (by this process or another), until ctx ends; it then
//     yields ctx.Err() once.
//   - Get and List read the projection; List is newest first.
//   - All methods are safe for concurrent use.
type Store interface {
	Append(ctx context.Context, debateID string, events ...Event) (int64, error)
	Load(ctx context.Context, debateID string, afterSeq int64) ([]Event, error)
	Subscribe(ctx context.Context, debateID string, afterSeq int64) iter.Seq2[Event, error]
	Get(ctx context.Context, debateID string) (Summary, error)
	List(ctx context.Context, f ListFilter) ([]Summary, error)
	Close() error
}

// Store errors.
var (
	ErrNotFound = errors.New("debate not found")
	ErrExists   = errors.New("debate already exists")
)

// Summary is the projection of a debate used by listings.
type Summary struct {
	ID      string    `json:"id"`
	Format  string    `json:"format"`
	Topic   string    `json:"topic"`
	Status  Status    `json:"status"`
	Phase   string    `json:"phase,omitempty"` // last phase label
	Round   int       `json:"round"`
	Turns   int       `json:"turns"` // completed turns
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	LastSeq int64     `json:"last_seq"`
}

// ListFilter narrows List.
type ListFilter struct {
	Format string // "" = all
	Status Status // "" = all
	Topic  string // exact topic, "" = all (used to find an unfinished debate to resume)
	Limit  int    // 0 = no limit
}

// Status is where a debate stands.
type Status string

// Statuses.
const (
	StatusRunning    Status = "running"
	StatusCheckpoint Status = "checkpoint"
	StatusPaused     Status = "paused"
	StatusCompleted  Status = "completed"
	StatusFailed     Status = "failed"
)

// Finished reports whether the debate has ended for good.
func (s Status) Finished() bool { return s == StatusCompleted }

// Project updates a summary with one event. Stores call it so that every
// implementation projects alike.
func Project(s *Summary, e Event) {
	s.LastSeq = e.Seq
	s.Updated = e.Time
	switch e.Type {
	case TypeCreated:
		var c Created
		if e.Decode(&c) == nil {
			s.ID, s.Format, s.Topic, s.Created = e.Debate, c.Format, c.Topic, e.Time
		}
		s.Status = StatusRunning
	case TypePhase:
		var p PhaseChanged
		if e.Decode(&p) == nil {
			s.Phase = p.Label
			if p.Round > s.Round {
				s.Round = p.Round
			}
		}
	case TypeTurnStarted:
		var t TurnStarted
		if e.Decode(&t) == nil && t.Turn.Round > s.Round {
			s.Round = t.Turn.Round
		}
		s.Status = StatusRunning
	case TypeTurnCompleted:
		s.Turns++
	case TypeCheckpoint:
		s.Status = StatusCheckpoint
	case TypeCheckpointAnswer, TypeResumed:
		s.Status = StatusRunning
	case TypePaused:
		s.Status = StatusPaused
	case TypeFailed:
		s.Status = StatusFailed
	case TypeCompleted:
		s.Status = StatusCompleted
	}
}

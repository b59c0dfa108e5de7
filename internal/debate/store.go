package debate

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/pricing"
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
//   - Get and List read the projection; List is newest first (by Created,
//     then by ID in byte order, descending). Both fill Summary.Lease with
//     the debate's lease while one is held (expired or not: the reader
//     judges with Lease.Live). ListFilter.After continues a list where an
//     earlier page ended: only the debates that sort after that position,
//     whether or not a debate is still there, so that pages neither repeat
//     nor skip a debate however the others change meanwhile (a debate
//     created since sorts first, before any page after the first). List
//     answers a status filter from an index, not by reading every summary.
//   - Count groups every debate by stored Status and Format: how many, and
//     the sums of their Turns and CostUSD, the groups in order of status
//     then format, none empty. The store answers it with one aggregate,
//     without reading each summary into memory, so that a scrape of
//     /metrics stays cheap at tens of thousands of debates.
//   - An id that no debate can have (ValidID false: not UTF-8, a control
//     character such as NUL, over MaxIDLen bytes) is unknown to every
//     method: ErrNotFound, never the database's error; creating a debate
//     with one fails with ErrInvalidID. Front-ends may answer such an id
//     without asking the store, and those that do not get the same answer.
//   - All methods are safe for concurrent use.
//
// The lease makes one runner per debate, in every mode (a terminal, the
// server, a worker). Its contract, also checked by the suite:
//   - AcquireLease grants the lease of an existing debate (ErrNotFound
//     otherwise) when no lease is held, when the held one has expired, when
//     owner.ID already holds it (it is then renewed), or when the holder's
//     ID is steal (a caller that knows the holder is dead, for instance a
//     dead process on the same host). Otherwise it fails with *LeaseHeldError
//     naming the holder. Granting is atomic: of two runners racing for one
//     debate, one wins. The lease expires ttl after it was granted.
//   - RenewLease extends the lease by ttl from now if ownerID holds it, even
//     if it expired meanwhile and nobody took it; otherwise ErrLeaseLost.
//   - ReleaseLease gives the lease up if ownerID holds it; otherwise it does
//     nothing and returns nil.
//   - Lease times come from the store's clock (the database's, when several
//     machines share one), so that expiry means the same to every runner.
type Store interface {
	Append(ctx context.Context, debateID string, events ...Event) (int64, error)
	Load(ctx context.Context, debateID string, afterSeq int64) ([]Event, error)
	// LoadN is Load of at most n events (all of them when n <= 0): a
	// reader that needs how a log begins (its debate.created) reads that,
	// not the whole log.
	LoadN(ctx context.Context, debateID string, afterSeq int64, n int) ([]Event, error)
	Subscribe(ctx context.Context, debateID string, afterSeq int64) iter.Seq2[Event, error]
	Get(ctx context.Context, debateID string) (Summary, error)
	List(ctx context.Context, f ListFilter) ([]Summary, error)
	Count(ctx context.Context) ([]Count, error)
	AcquireLease(ctx context.Context, debateID string, owner LeaseOwner, ttl time.Duration, steal string) (Lease, error)
	RenewLease(ctx context.Context, debateID, ownerID string, ttl time.Duration) (Lease, error)
	ReleaseLease(ctx context.Context, debateID, ownerID string) error
	// Delete removes a debate: its events, projections and lease. An unknown
	// debate is ErrNotFound. Subscribers of the debate see it end.
	Delete(ctx context.Context, debateID string) error
	Close() error
}

// Store errors.
var (
	ErrNotFound  = errors.New("debate not found")
	ErrExists    = errors.New("debate already exists")
	ErrLeaseLost = errors.New("the debate's lease is held by another runner")
)

// LeaseOwner identifies a runner: a process on a host.
type LeaseOwner struct {
	ID      string    `json:"id"` // unique per runner
	Host    string    `json:"host"`
	PID     int       `json:"pid"`
	Started time.Time `json:"started"` // when the runner started
}

// Lease is a runner's claim on a debate.
type Lease struct {
	Owner   LeaseOwner `json:"owner"`
	Since   time.Time  `json:"since"`   // when this owner took it
	Expires time.Time  `json:"expires"` // unless renewed
}

// Live reports whether the lease still holds at now.
func (l Lease) Live(now time.Time) bool { return now.Before(l.Expires) }

// LeaseHeldError is AcquireLease's answer when another runner holds the
// lease.
type LeaseHeldError struct {
	Debate string
	Lease  Lease
}

func (e *LeaseHeldError) Error() string {
	o := e.Lease.Owner
	return fmt.Sprintf("debate %s is running (pid %d on host %s, since %s); wait for it or stop it where it runs "+
		"(Ctrl+C in its terminal; Pause on the dashboard of the server that runs it): it pauses, and resumes from where it stopped",
		e.Debate, o.PID, o.Host, e.Lease.Since.Local().Format("15:04"))
}

// Is makes errors.Is(err, ErrLeaseLost) true for a held lease too.
func (e *LeaseHeldError) Is(target error) bool { return target == ErrLeaseLost }

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
	// CostUSD is what the debate's completed turns cost so far (0 for
	// data-only turns and for models without a known price): with LLMTurns
	// and Unpriced it says whether 0 means free, no model, or unknown.
	CostUSD float64 `json:"cost_usd"`
	// LLMTurns counts the completed turns that called a model. A debate
	// with turns but none of them LLM turns is data-only: it has no model
	// cost at all, which a CostUSD of 0 alone would show as a free run.
	LLMTurns int `json:"llm_turns"`
	// Unpriced names the models ("provider/model") of completed turns whose
	// cost is unknown (see CostUnknown): CostUSD leaves them out, so it is
	// a lower bound when any are named.
	Unpriced []string `json:"unpriced_models,omitempty"`
	// Lease is the runner's lease while one is held; nil otherwise.
	Lease *Lease `json:"lease,omitempty"`
}

// DataOnlyModel is the model recorded for a data-only turn, one that calls
// no model: a store's turns projection tells such turns by it.
const DataOnlyModel = "data-only"

// CostUnknown reports whether a completed turn's cost is unknown: a model
// call recorded at $0 without a price (priced is TurnCompleted.Priced) whose
// model ("provider/model") has none in the built-in table either (turns
// recorded before Priced existed). A local model's price is known (zero),
// a price of 0 the user gave is recorded as priced, and a data-only turn
// has no model cost, so none of them is unknown. The answer depends on the
// log alone, never on the reader's price overrides, so that every
// front-end shows one figure for a debate; stores that compute
// Summary.Unpriced from their own projection use it, so that every store
// and the cost report agree.
func CostUnknown(model string, costUSD float64, noLLM, priced bool) bool {
	return UsageCostUnknown(model, llm.Usage{}, costUSD, noLLM, priced)
}

// UsageCostUnknown is CostUnknown for a turn whose usage u is known too: a
// call whose server reported no token counts (llm.Usage.Unreported) has an
// unknown cost whatever its model's price.
func UsageCostUnknown(model string, u llm.Usage, costUSD float64, noLLM, priced bool) bool {
	if noLLM || priced || model == DataOnlyModel || costUSD != 0 {
		return false
	}
	provider, name, _ := strings.Cut(model, "/")
	_, known := pricing.Default().CostFor(provider, name, llm.Usage{Unreported: u.Unreported})
	return !known
}

// AddUnpriced adds model to a Summary.Unpriced list unless it is there.
func AddUnpriced(list []string, model string) []string {
	if slices.Contains(list, model) {
		return list
	}
	return append(list, model)
}

// StatusInterrupted is how a debate shows whose log says it is running, or
// waiting at a checkpoint, but whose runner is gone (its lease expired, or
// was never taken): it can be resumed. It is never stored.
const StatusInterrupted Status = "interrupted"

// Shown is the status to show at now, decided from the summary alone so
// that every front-end (list, show, the shell, the server) shows the same:
//
//   - queued: the log says a run waits in the job queue (Queued) and no
//     live runner holds the debate; one whose worker holds its lease (it
//     prepares the run) is running. A running debate whose lease a job's
//     worker left behind when it died (the lease is not live, its owner is
//     a job's, see JobOwner) is queued too: its job is still marked running
//     in the queue, and the next worker to look takes it over
//     (internal/jobs reclaim). Nothing is to be resumed by hand: a worker
//     runs it.
//   - interrupted: running debates, and debates waiting for a checkpoint's
//     answer, whose runner is gone (a runner waits at a checkpoint only
//     while it holds the lease: one with no one to answer pauses): they can
//     be resumed.
//
// alive, when not nil, tells whether a lease's owner is still alive when
// the store cannot (a dead process on this host).
func (s Summary) Shown(now time.Time, alive func(LeaseOwner) bool) Status {
	switch s.Status {
	case StatusQueued:
		if s.LiveLease(now, alive) != nil {
			return StatusRunning
		}
		return StatusQueued
	case StatusRunning, StatusCheckpoint:
		if s.LiveLease(now, alive) != nil {
			return s.Status
		}
		if s.Lease != nil && s.Lease.Owner.IsJob() {
			return StatusQueued
		}
		return StatusInterrupted
	}
	return s.Status
}

// LiveLease is the debate's lease if a live runner holds it at now: one
// not expired whose owner alive says is alive (alive nil: not asked).
func (s Summary) LiveLease(now time.Time, alive func(LeaseOwner) bool) *Lease {
	if l := s.Lease; l != nil && l.Live(now) && (alive == nil || alive(l.Owner)) {
		return l
	}
	return nil
}

// ListFilter narrows List.
type ListFilter struct {
	Format string // "" = all
	Status Status // "" = all
	// Statuses, when not empty, keeps the debates whose stored status is
	// any of these (with Status too, both must hold): the stored statuses
	// a status to show (Summary.Shown) may come from.
	Statuses []Status
	Topic    string // exact topic, "" = all (used to find an unfinished debate to resume)
	Limit    int    // 0 = no limit
	// After, when not nil, keeps the debates that sort after it in a
	// List: older, or as old with a smaller ID. It is the position of the
	// last debate of the page before (PositionOf).
	After *ListPosition
}

// ListPosition is a place in List's order: a debate's Created and ID.
type ListPosition struct {
	Created time.Time
	ID      string
}

// PositionOf is where s sorts in a List.
func PositionOf(s Summary) ListPosition { return ListPosition{Created: s.Created, ID: s.ID} }

// Before reports whether s sorts after p in a List (is older, or as old
// with a smaller ID): whether a list continued after p holds it.
func (p ListPosition) Before(s Summary) bool {
	if !s.Created.Equal(p.Created) {
		return s.Created.Before(p.Created)
	}
	return s.ID < p.ID
}

// Count is one group of Store.Count: the debates of one stored status and
// format, with the sums of their completed turns and cost.
type Count struct {
	Status  Status  `json:"status"`
	Format  string  `json:"format"`
	Debates int     `json:"debates"`
	Turns   int     `json:"turns"`
	CostUSD float64 `json:"cost_usd"`
}

// Status is where a debate stands.
type Status string

// Statuses.
const (
	StatusRunning    Status = "running"
	StatusCheckpoint Status = "checkpoint"
	// StatusQueued: a run waits in the job queue for a worker (see Queued
	// and Shown). It is stored, unlike StatusInterrupted.
	StatusQueued    Status = "queued"
	StatusPaused    Status = "paused"
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
)

// Finished reports whether the debate has ended for good.
func (s Status) Finished() bool { return s == StatusCompleted }

// Project updates a summary with one event. Stores call it so that every
// implementation projects alike.
func Project(s *Summary, e Event) { ProjectDecoded(s, e, nil) }

// ProjectDecoded is Project for a store that has already decoded the event's
// payload (p, a pointer to the payload of e's type; nil when not decoded), so
// that an append decodes each payload once: a turn's completion carries its
// whole text, and decoding it again for every projection was a measurable
// part of an append.
func ProjectDecoded(s *Summary, e Event, p Payload) {
	s.LastSeq = e.Seq
	s.Updated = e.Time
	if s.Status == StatusQueued && EndsQueued(e.Type) {
		s.Status = StatusRunning
	}
	switch e.Type {
	case TypeQueued:
		// A completed debate never runs again (its job finds nothing to
		// run): one queued in a race with its completion stays completed.
		if s.Status != StatusCompleted {
			s.Status = StatusQueued
		}
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
		t, ok := p.(*TurnStarted)
		if !ok {
			t = &TurnStarted{}
			ok = e.Decode(t) == nil
		}
		if ok && t.Turn.Round > s.Round {
			s.Round = t.Turn.Round
		}
		s.Status = StatusRunning
	case TypeTurnCompleted:
		s.Turns++
		c, ok := p.(*TurnCompleted)
		if !ok {
			c = &TurnCompleted{}
			ok = e.Decode(c) == nil
		}
		if ok {
			s.CostUSD += c.CostUSD
			if !c.NoLLM {
				s.LLMTurns++
			}
			if UsageCostUnknown(c.Model, c.Usage, c.CostUSD, c.NoLLM, c.Priced) {
				s.Unpriced = AddUnpriced(s.Unpriced, c.Model)
			}
		}
	case TypeCheckpoint:
		s.Status = StatusCheckpoint
	case TypeCheckpointAnswer:
		s.Status = StatusRunning
	case TypeResumed:
		s.Status = StatusRunning
		var r Resumed
		if e.Decode(&r) == nil && r.Checkpoint != "" {
			s.Status = StatusCheckpoint
		}
	case TypePaused:
		s.Status = StatusPaused
	case TypeFailed:
		s.Status = StatusFailed
	case TypeCompleted:
		s.Status = StatusCompleted
	}
}

package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
)

// Limits holds the limits every worker sharing the database respects
// together, kept in the database itself (not per process):
//
//   - per provider, at most Concurrency calls at once: a semaphore of rows
//     in parley_slots, one per call in flight, each with an expiry renewed
//     while the call streams, so that a worker that dies gives its slots
//     back;
//   - per provider, an optional tokens-per-minute cap: each call's tokens
//     are added to per-second buckets in parley_tokens, and a call starts
//     only while the last minute's total is under the cap (a soft cap: the
//     calls in flight may pass it by their own size);
//   - the SEC's fair-access rate (at most 8 requests a second from all
//     workers, whatever the machine): a reservation of the next free slot
//     in parley_rate, 125 ms apart.
//
// The settings live in parley_limits (`parley limits set`); workers read
// them every few seconds. On PostgreSQL the database's clock times them
// all, so that machines whose clocks differ agree; SQLite is one machine.
type Limits struct {
	db  limitsDB
	log *slog.Logger
	// window is the tokens-per-minute window (a minute; tests shorten it).
	window time.Duration
	// slotTTL is how long a slot lasts unless renewed.
	slotTTL time.Duration
	// poll is how often a call waiting for a slot or for tokens looks again.
	poll time.Duration

	mu     sync.Mutex
	cached map[string]cachedLimit
}

// Limit is one provider's limits; zero means none.
type Limit struct {
	Provider        string `json:"provider"`
	Concurrency     int    `json:"concurrency"`
	TokensPerMinute int    `json:"tokens_per_minute"`
	// InFlight and LastMinute are the calls in flight and the tokens spent
	// in the last minute, across workers (for `parley limits`).
	InFlight   int   `json:"in_flight"`
	LastMinute int64 `json:"last_minute_tokens"`
}

type cachedLimit struct {
	Limit
	at time.Time
}

// configEvery is how long a worker keeps the limits it read.
const configEvery = 5 * time.Second

// limitsDB is what Limits needs of a database.
type limitsDB interface {
	init(ctx context.Context) error
	get(ctx context.Context, provider string) (Limit, error)
	set(ctx context.Context, l Limit) error
	list(ctx context.Context) ([]Limit, error)
	// tryAcquire takes a slot of provider for holder if fewer than limit
	// are held (expired ones do not count).
	tryAcquire(ctx context.Context, provider, holder string, limit int, ttl time.Duration) (bool, error)
	renew(ctx context.Context, provider, holder string, ttl time.Duration) error
	release(ctx context.Context, provider, holder string) error
	// holders are the holders of provider's slots.
	holders(ctx context.Context, provider string) ([]string, error)
	// tokens is what provider spent in the window up to now.
	tokens(ctx context.Context, provider string, window time.Duration) (int64, error)
	addTokens(ctx context.Context, provider string, n int64) error
	// reserve takes the next request slot of the rate named, interval after
	// the last one given, and returns how long to wait for it.
	reserve(ctx context.Context, name string, interval time.Duration) (time.Duration, error)
}

func newLimits(db limitsDB, log *slog.Logger) *Limits {
	return &Limits{db: db, log: log, window: time.Minute, slotTTL: 2 * time.Minute, poll: 100 * time.Millisecond, cached: map[string]cachedLimit{}}
}

// Get reads a provider's limits, cached for a few seconds.
func (l *Limits) Get(ctx context.Context, provider string) (Limit, error) {
	l.mu.Lock()
	c, ok := l.cached[provider]
	l.mu.Unlock()
	if ok && time.Since(c.at) < configEvery {
		return c.Limit, nil
	}
	lim, err := l.db.get(ctx, provider)
	if err != nil {
		return Limit{}, fmt.Errorf("read the limits of %s: %w", provider, err)
	}
	l.mu.Lock()
	l.cached[provider] = cachedLimit{lim, time.Now()}
	l.mu.Unlock()
	return lim, nil
}

// Set stores a provider's limits for every worker.
func (l *Limits) Set(ctx context.Context, lim Limit) error {
	if lim.Concurrency < 0 || lim.TokensPerMinute < 0 {
		return errors.New("limits cannot be negative (0 means none)")
	}
	return l.db.set(ctx, lim)
}

// List lists the providers with limits, with what they use now.
func (l *Limits) List(ctx context.Context) ([]Limit, error) { return l.db.list(ctx) }

// Wrap returns a provider whose calls respect its limits.
func (l *Limits) Wrap(p llm.Provider) llm.Provider {
	if p == nil {
		return nil
	}
	if lp, ok := p.(*limitedProvider); ok && lp.limits == l {
		return p
	}
	return &limitedProvider{Provider: p, limits: l}
}

// acquire waits for a slot of provider under its concurrency limit and
// returns its release, which also records the tokens the call spent.
func (l *Limits) acquire(ctx context.Context, provider string) (func(tokens int64), error) {
	lim, err := l.Get(ctx, provider)
	if err != nil {
		return nil, err
	}
	if lim.TokensPerMinute > 0 {
		if err := l.waitTokens(ctx, provider, int64(lim.TokensPerMinute)); err != nil {
			return nil, err
		}
	}
	record := func(tokens int64) {
		if lim.TokensPerMinute > 0 && tokens > 0 {
			if err := l.db.addTokens(context.WithoutCancel(ctx), provider, tokens); err != nil {
				l.log.Warn("record the tokens of a call", "provider", provider, "err", err)
			}
		}
	}
	if lim.Concurrency <= 0 {
		return record, nil
	}
	holder := slotHolder(debate.ThisProcess())
	logged := false
	for {
		ok, err := l.db.tryAcquire(ctx, provider, holder, lim.Concurrency, l.slotTTL)
		if err != nil {
			return nil, fmt.Errorf("take a call slot of %s: %w", provider, err)
		}
		if ok {
			break
		}
		if l.freeDead(ctx, provider) > 0 {
			continue
		}
		if !logged {
			l.log.Info("waiting for a call slot", "provider", provider, "concurrency", lim.Concurrency)
			logged = true
		}
		if err := sleep(ctx, l.poll); err != nil {
			return nil, err
		}
	}
	rctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(l.slotTTL / 3)
		defer t.Stop()
		for {
			select {
			case <-rctx.Done():
				return
			case <-t.C:
			}
			if err := l.db.renew(rctx, provider, holder, l.slotTTL); err != nil && rctx.Err() == nil {
				l.log.Warn("renew a call slot", "provider", provider, "err", err)
			}
		}
	}()
	return func(tokens int64) {
		stop()
		<-done
		if err := l.db.release(context.WithoutCancel(ctx), provider, holder); err != nil {
			l.log.Warn("release a call slot", "provider", provider, "err", err)
		}
		record(tokens)
	}, nil
}

// waitTokens waits until provider's last-minute tokens are under cap.
func (l *Limits) waitTokens(ctx context.Context, provider string, cap int64) error {
	logged := false
	for {
		used, err := l.db.tokens(ctx, provider, l.window)
		if err != nil {
			return fmt.Errorf("read the tokens %s spent: %w", provider, err)
		}
		if used < cap {
			return nil
		}
		if !logged {
			l.log.Info("waiting for the tokens-per-minute cap", "provider", provider, "used", used, "cap", cap)
			logged = true
		}
		if err := sleep(ctx, max(l.poll, l.window/60)); err != nil {
			return err
		}
	}
}

// SECRate is the SEC's fair-access limit shared by every worker on the
// database: an edgar.Limiter.
func (l *Limits) SECRate() *Rate { return &Rate{l: l, name: "sec", interval: time.Second / 8} }

// Rate spaces requests of one kind across every worker on the database.
type Rate struct {
	l        *Limits
	name     string
	interval time.Duration
}

// Wait blocks until a request may be sent, or ctx ends.
func (r *Rate) Wait(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d, err := r.l.db.reserve(ctx, r.name, r.interval)
	if err != nil {
		return fmt.Errorf("reserve a %s request slot: %w", r.name, err)
	}
	return sleep(ctx, d)
}

// limitedProvider is a provider whose calls respect the cluster's limits.
type limitedProvider struct {
	llm.Provider
	limits *Limits
}

// Stream implements llm.Provider.
func (p *limitedProvider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		release, err := p.limits.acquire(ctx, p.Name())
		if err != nil {
			yield(llm.Chunk{}, err)
			return
		}
		var used llm.Usage
		defer func() { release(int64(used.InputTokens + used.OutputTokens)) }()
		for c, err := range p.Provider.Stream(ctx, req) {
			if c.Usage != nil {
				used = used.Add(*c.Usage)
			}
			if !yield(c, err) {
				return
			}
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// slotHolder names a call slot's holder after its process, PID@HOST/RANDOM,
// so that a slot whose process died on this host is known free at once
// (freeDead), as a debate's lease is.
func slotHolder(o debate.LeaseOwner) string {
	return fmt.Sprintf("%d@%s/%s", o.PID, o.Host, randomID())
}

// holderOwner is the process a slot holder names; ok is false for a holder
// that names none.
func holderOwner(holder string) (o debate.LeaseOwner, ok bool) {
	pid, rest, ok := strings.Cut(holder, "@")
	if !ok {
		return o, false
	}
	host, _, ok := strings.Cut(rest, "/")
	n, err := strconv.Atoi(pid)
	if !ok || err != nil {
		return o, false
	}
	return debate.LeaseOwner{PID: n, Host: host}, true
}

// freeDead releases provider's slots held by processes of this host that
// died (a worker killed mid-call), which would otherwise count against the
// limit until they expire (slotTTL, minutes), stalling every worker that
// waits for a slot. It returns how many it released.
func (l *Limits) freeDead(ctx context.Context, provider string) int {
	holders, err := l.db.holders(ctx, provider)
	if err != nil {
		l.log.Warn("list the call slots", "provider", provider, "err", err)
		return 0
	}
	n := 0
	for _, h := range holders {
		if o, ok := holderOwner(h); !ok || debate.OwnerAlive(o) {
			continue
		}
		if err := l.db.release(ctx, provider, h); err != nil {
			l.log.Warn("release the call slot of a dead process", "provider", provider, "holder", h, "err", err)
			continue
		}
		l.log.Info("released the call slot of a dead process", "provider", provider, "holder", h)
		n++
	}
	return n
}

func randomID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

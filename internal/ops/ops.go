// Package ops serves what operators scrape from `parley serve` and `parley
// worker`: /healthz (the database answers) and /metrics (Prometheus text
// format), read from the debate database at scrape time, so that every
// process of a cluster reports the same figures for the debates and jobs.
package ops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/debate"
)

// JobCounter counts the debate jobs by state; nil when the process runs no
// job queue.
type JobCounter interface {
	JobCounts(ctx context.Context) (map[string]int, error)
}

// Handler serves /healthz and /metrics.
type Handler struct {
	Store   debate.Store
	Jobs    JobCounter
	Started time.Time
	// Role names the process in the metrics: serve or worker.
	Role string
	// Calls counts this process's model calls; nil for none.
	Calls *Calls
	// Streams reads this process's event streams; nil for a process that
	// serves none (a worker).
	Streams func() StreamCounts
}

// StreamCounts are a server's event streams: those open, the most it
// holds, and those it refused at that bound since it started.
type StreamCounts struct {
	Open, Max, Refused int64
}

// Healthz answers 200 when the database answers, 503 otherwise.
func (h *Handler) Healthz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	_, err := h.Store.Get(ctx, "DEB-healthz0")
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if err != nil && !errors.Is(err, debate.ErrNotFound) {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "the debate database does not answer: %v\n", err)
		return
	}
	fmt.Fprintln(w, "ok")
}

// Metrics writes the Prometheus text exposition.
func (h *Handler) Metrics(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	var b strings.Builder
	if err := h.write(ctx, &b); err != nil {
		http.Error(w, "metrics: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	_, _ = io.WriteString(w, b.String())
}

// activeStatuses are the stored statuses whose status to show depends on
// the debate's lease (debate.Summary.Shown): few debates at a time, read
// whole; the others are counted by the store.
func activeStatuses() []debate.Status {
	return []debate.Status{debate.StatusQueued, debate.StatusRunning, debate.StatusCheckpoint}
}

func (h *Handler) write(ctx context.Context, b *strings.Builder) error {
	// Store.Count is one aggregate, not a read of every summary: a scrape
	// of a database of 50,000 debates read them all, 0.3 s of the
	// database's and this process's time every 15 s.
	counts, err := h.Store.Count(ctx)
	if err != nil {
		return err
	}
	active, err := h.Store.List(ctx, debate.ListFilter{Statuses: activeStatuses()})
	if err != nil {
		return err
	}
	byStatus := map[debate.Status]int{}
	byFormat := map[string]int{}
	turns, cost := 0, 0.0
	for _, c := range counts {
		if !slices.Contains(activeStatuses(), c.Status) {
			byStatus[c.Status] += c.Debates
		}
		byFormat[c.Format] += c.Debates
		turns += c.Turns
		cost += c.CostUSD
	}
	now := time.Now()
	for _, s := range active {
		byStatus[s.Shown(now, debate.OwnerAlive)]++
	}
	shown := map[string]float64{}
	for _, st := range []debate.Status{debate.StatusQueued, debate.StatusRunning, debate.StatusCheckpoint, debate.StatusPaused,
		debate.StatusInterrupted, debate.StatusCompleted, debate.StatusFailed} {
		shown[string(st)] = float64(byStatus[st])
	}
	gauge(b, "parley_debates", "Debates in the database by the status to show (queued: waiting for a worker; checkpoint: waiting for a person's answer; interrupted: running, but its runner is gone).", "status", shown)
	formats := map[string]float64{}
	for f, n := range byFormat {
		formats[f] = float64(n)
	}
	gauge(b, "parley_debates_by_format", "Debates in the database by format.", "format", formats)
	counter(b, "parley_turns_completed_total", "Turns completed, over every debate in the database.", float64(turns))
	counter(b, "parley_cost_usd_total", "What the completed turns cost, in US dollars (models without a known price count 0).", cost)
	if h.Jobs != nil {
		counts, err := h.Jobs.JobCounts(ctx)
		if err != nil {
			return err
		}
		jobs := map[string]float64{}
		for s, n := range counts {
			jobs[s] = float64(n)
		}
		gauge(b, "parley_jobs", "Debate jobs by state (a debate waiting at a checkpoint has none; overtaken: its worker died and another job took its debate over).", "state", jobs)
	}
	if h.Calls != nil {
		h.Calls.write(b)
	}
	if h.Streams != nil {
		// This process's own, not the database's: each server of a
		// cluster holds its own streams, up to its own --max-streams.
		sc := h.Streams()
		fmt.Fprintf(b, "# HELP parley_event_streams_open Event streams (live views of debates) this process holds open.\n# TYPE parley_event_streams_open gauge\nparley_event_streams_open %d\n", sc.Open)
		fmt.Fprintf(b, "# HELP parley_event_streams_max The most event streams this process holds open at once (parley serve --max-streams).\n# TYPE parley_event_streams_max gauge\nparley_event_streams_max %d\n", sc.Max)
		counter(b, "parley_event_streams_refused_total", "Event streams refused (503) because this process held parley_event_streams_max, since it started.", float64(sc.Refused))
	}
	fmt.Fprintf(b, "# HELP parley_process_start_time_seconds When this %s process started.\n# TYPE parley_process_start_time_seconds gauge\nparley_process_start_time_seconds{role=%q} %d\n",
		h.Role, h.Role, h.Started.Unix())
	return nil
}

func gauge(b *strings.Builder, name, help, label string, values map[string]float64) {
	fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name)
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(b, "%s{%s=%q} %g\n", name, label, k, values[k])
	}
}

func counter(b *strings.Builder, name, help string, v float64) {
	fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s counter\n%s %g\n", name, help, name, name, v)
}

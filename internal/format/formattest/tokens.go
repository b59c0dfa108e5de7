package formattest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
)

// TokenReport measures what a debate's prompts cost: the input tokens sent,
// what a naive design that resends the whole transcript with every request
// would have sent, and how much of each request repeats a prefix of an
// earlier one (what a provider's prompt cache can serve).
type TokenReport struct {
	Requests int
	// Input is the input tokens of every request, counted as the fake server
	// counts them (fakellm.InputTokens: about four characters a token).
	Input int
	// Naive is the same requests with the whole transcript so far (every
	// turn completed before the request's turn started) in place of the
	// format's own context: the system prompt, the transcript and the
	// request's last message, the task.
	Naive int
	// SharedBytes is the bytes of each request that repeat the longest
	// matching prefix of an earlier request, and TotalBytes all bytes.
	SharedBytes, TotalBytes int
	// PerRequest is the same, request by request, in the order sent.
	PerRequest []RequestShare
	// NewBytes is the bytes of each request that no earlier request holds:
	// the whole first request, then each byte no run of NovelRun bytes
	// around it repeats from an earlier request (the turns' words each
	// request is the first to carry, and what little of its task is new).
	// A shared prefix repeats an earlier request, so it holds none of them:
	// any design that carries these words sends NewBytes unshared at least.
	NewBytes int
}

// NovelRun is the run of bytes that, found in an earlier request, makes a
// byte of a request not new (TokenReport.NewBytes).
const NovelRun = 32

// FloorAt is the smallest Input / Naive that a prompt design carrying the
// words this one carries for the first time (NewBytes) can reach with at
// least share of its request bytes in a shared prefix: it sends at least
// NewBytes / (1 - share) bytes, counted in tokens at this debate's bytes a
// token. Above 0.5 at share 0.8, the two token goals of issue 13 (≤ 0.5 of
// a resend, ≥ 80% shared) cannot both hold at this length.
func (r TokenReport) FloorAt(share float64) float64 {
	if r.TotalBytes == 0 || r.Naive == 0 {
		return 0
	}
	bytes := float64(r.NewBytes) / (1 - share)
	return bytes * float64(r.Input) / float64(r.TotalBytes) / float64(r.Naive)
}

// RequestShare is one request's bytes and those that repeat the longest
// matching prefix of an earlier request.
type RequestShare struct {
	Tag           string
	Shared, Total int
	// Input and Naive are the request's input tokens and its naive
	// equivalent.
	Input, Naive int
}

// Ratio is Input / Naive.
func (r TokenReport) Ratio() float64 { return float64(r.Input) / float64(max(r.Naive, 1)) }

// Shared is SharedBytes / TotalBytes.
func (r TokenReport) Shared() float64 {
	return float64(r.SharedBytes) / float64(max(r.TotalBytes, 1))
}

func (r TokenReport) String() string {
	return fmt.Sprintf("%d requests, %d input tokens, %d with a full-transcript resend (%.2f), %.1f%% of request bytes in a shared prefix; %d new bytes, so no design with 80%% shared goes below %.2f",
		r.Requests, r.Input, r.Naive, r.Ratio(), 100*r.Shared(), r.NewBytes, r.FloorAt(0.8))
}

// Tokens measures the requests the debate's provider received against its
// event log and the steps its protocol asked for.
func (d *Debate) Tokens() TokenReport {
	d.T.Helper()
	d.mu.Lock()
	asked := maps.Clone(d.asked)
	d.mu.Unlock()
	return MeasureTokens(d.Events(), d.Prov.Requests(), asked)
}

// MeasureTokens measures reqs, the requests of a debate in the order they
// were sent, against the debate's events. asked gives, for each turn id,
// the turns that were completed when the protocol asked for the turn.
//
// A naive request carries the transcript of exactly those turns: a format
// builds all the turns of a step from one state, so a full-transcript resend
// could not show one turn of a step another that runs beside it, whichever
// finishes first. (Counting what completed before the turn's start event
// instead made the baseline depend on goroutine timing: a sibling that
// finished before the next one was started counted for it, and the naive
// total of one debate varied by up to 4% between runs.) A request whose
// turn is not in asked is its own naive equivalent.
func MeasureTokens(events []debate.Event, reqs []llm.Request, asked map[string][]string) TokenReport {
	// The tokens of each completed turn in the transcript.
	done := map[string]int{}
	for _, e := range events {
		if e.Type != debate.TypeTurnCompleted {
			continue
		}
		var tc debate.TurnCompleted
		if json.Unmarshal(e.Data, &tc) == nil {
			done[tc.Turn.ID] = fakellm.Tokens(tc.Text) + fakellm.MessageOverhead
		}
	}
	seen := make(map[string]int, len(asked))
	for id, before := range asked {
		for _, b := range before {
			seen[id] += done[b]
		}
	}
	var r TokenReport
	var prev []string
	runs := map[uint64]struct{}{}
	for _, req := range reqs {
		r.Requests++
		in := fakellm.InputTokens(req)
		r.Input += in
		naive := in
		if t, ok := seen[req.Tag]; ok && len(req.Messages) > 0 {
			last := req.Messages[len(req.Messages)-1]
			task := llm.Request{System: req.System, Tools: req.Tools, Schema: req.Schema, Messages: []llm.Message{last}}
			naive = max(in, fakellm.InputTokens(task)+t)
		}
		r.Naive += naive
		flat := flatten(req)
		best := 0
		for _, p := range prev {
			best = max(best, commonPrefix(p, flat))
		}
		r.SharedBytes += best
		r.TotalBytes += len(flat)
		r.PerRequest = append(r.PerRequest, RequestShare{Tag: req.Tag, Shared: best, Total: len(flat), Input: in, Naive: naive})
		r.NewBytes += newBytes(flat, runs)
		prev = append(prev, flat)
	}
	return r
}

// newBytes counts the bytes of flat that no run of NovelRun bytes found in
// runs (the runs of the earlier requests) covers, then adds flat's runs.
func newBytes(flat string, runs map[uint64]struct{}) int {
	n := len(flat) - NovelRun + 1
	if n <= 0 {
		return len(flat)
	}
	hashes := make([]uint64, n)
	for i := range n {
		// FNV-1a of the run, without a hasher and a copy per byte of
		// a request.
		x := uint64(14695981039346656037)
		for j := i; j < i+NovelRun; j++ {
			x = (x ^ uint64(flat[j])) * 1099511628211
		}
		hashes[i] = x
	}
	covered := 0 // bytes below this index are covered
	fresh := 0
	for i, h := range hashes {
		if _, ok := runs[h]; ok {
			fresh += max(0, i-covered)
			covered = i + NovelRun
		}
	}
	fresh += max(0, len(flat)-covered)
	for _, h := range hashes {
		runs[h] = struct{}{}
	}
	return fresh
}

// flatten writes a request in the order a model reads it.
func flatten(req llm.Request) string {
	var b strings.Builder
	for _, t := range req.Tools {
		fmt.Fprintf(&b, "tool %s %s %s\n", t.Name, t.Description, t.Schema)
	}
	if req.Schema != nil {
		fmt.Fprintf(&b, "schema %s %s\n", req.Schema.Name, req.Schema.JSON)
	}
	fmt.Fprintf(&b, "system\n%s\n", req.System)
	for _, m := range req.Messages {
		fmt.Fprintf(&b, "%s\n%s\n", m.Role, m.Text)
		for _, tc := range m.ToolCalls {
			fmt.Fprintf(&b, "call %s %s\n", tc.Name, tc.Args)
		}
		for _, tr := range m.ToolResults {
			fmt.Fprintf(&b, "result %s\n", tr.Content)
		}
	}
	return b.String()
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// Prose is a text of n words drawn from vocab, the same for the same id and
// different between ids, phrase by phrase, as real debaters' replies are:
// token measurements need replies that neither repeat each other (a
// provider's cache would serve them) nor trip a format's repetition check.
func Prose(id string, n int, vocab ...string) string {
	h := fnv.New64a()
	h.Write([]byte(id))
	x := h.Sum64()
	var b strings.Builder
	b.WriteString(id + ":")
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b.WriteString(" " + vocab[x%uint64(len(vocab))])
	}
	return b.String()
}

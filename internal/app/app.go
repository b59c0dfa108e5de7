// Package app is Parley's application layer: starting, resuming and running
// a debate (its cast of models, its tools, its data-only responders, its
// lease) for every front-end. The command line, the shell, the server and
// the workers all call it; none of them builds a runner itself.
package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/pricing"
	"github.com/parleyhq/parley/internal/setup"
)

// MaxTopicLen bounds the topic: a debate question, not a document.
const MaxTopicLen = 2000

// App starts, resumes and runs debates. Its fields are set once; an App is
// safe for concurrent use when its Store is.
type App struct {
	Store   debate.Store
	Formats *debate.Formats
	Env     setup.Env
	// Prices prices every model call this App's runs make, when the call
	// is made: each completed turn records its cost and whether the model
	// had a price, and every front-end shows those recorded figures (see
	// debate.CostUnknown). Nil is the built-in table; a front-end sets the
	// table with the user's overrides (the config's prices).
	Prices *pricing.Table
	Log    *slog.Logger
	// Owner names the runners this App starts in the debates' leases; the
	// zero value is this process.
	Owner debate.LeaseOwner
	// DataPace streams the replies of Parley's data-only agents line by
	// line, this long apart, for a person watching (the shell); zero
	// appends each at once.
	DataPace time.Duration
	// WrapProvider, when set, wraps every model's provider of the runs this
	// App prepares (the workers' limits shared through their database).
	WrapProvider func(llm.Provider) llm.Provider
	// Handoff, when closed, stops the runs of this App's sessions between
	// steps, without pausing their debates (a worker shutting down hands
	// them to another); see debate.Runner.Handoff.
	Handoff <-chan struct{}
}

// StartRequest is a request to start a new debate.
type StartRequest struct {
	setup.Request
	Models Models
	Limits debate.Limits
	// Create, when set, stores the new debate's debate.created event in
	// place of an append to the Store: a job queue appends it and enqueues
	// the debate's first run in one transaction. Start fails with its error.
	// Such a debate is run by the queue's worker: the Session returned is
	// prepared only to check it, and its Run refuses.
	Create func(ctx context.Context, created debate.Event) error
	// Idempotency, when set, names the request: the debate's id is
	// KeyedID(Idempotency.Key), so that the request sent twice (a client
	// retrying after a timeout, a form submitted twice) creates one debate,
	// the second start failing with debate.ErrExists on every store and
	// across processes; Keyed finds the debate.
	Idempotency *debate.Idempotency
}

// ResumeRequest is a request to resume a debate.
type ResumeRequest struct {
	ID string
	// Models given on resume change the recorded cast explicitly (the
	// change is recorded); the zero value keeps the recorded models.
	Models Models
	// Limits, when not nil, changes the recorded limits (for example a
	// larger budget for a debate paused on its budget).
	Limits func(*debate.Limits)
	// Offline refuses a debate recorded with models and keeps the run off
	// the network (no market data, no web search).
	Offline bool
}

// Session is a debate ready to run: created (or loaded), its protocol,
// cast and tools prepared.
type Session struct {
	ID      string
	Format  debate.Format
	Topic   string
	Options json.RawMessage
	// Models is the recorded cast (role → provider/model); DataOnly the
	// agents Parley's data-only responders answer for.
	Models   map[string]string
	DataOnly []string
	// Changes are the cast changes a resume records.
	Changes []debate.CastChanged
	// Notices are what a resume's front-end says before it runs: each cast
	// change, and each model server the environment now names that the
	// debate does not use (a resume keeps the recorded one unless told).
	Notices []string

	app    *App
	runner *debate.Runner
	proto  debate.Protocol
	// queued: the debate was created for a worker to run, and this
	// Session prepared only to check it (see StartPlan).
	queued bool
}

// NewID returns a new debate id.
func NewID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "DEB-" + hex.EncodeToString(b[:])
}

// KeyedID is the id of the debate a request with an idempotency key
// creates: a hash of the key, in the form of NewID's ids.
func KeyedID(key string) string {
	h := sha256.Sum256([]byte("parley idempotency key\x00" + key))
	return "DEB-" + hex.EncodeToString(h[:4])
}

// ErrKeyCollision is Keyed's answer for a key whose id (KeyedID) another
// debate has: one created without that key.
var ErrKeyCollision = errors.New("the idempotency key's debate id is taken by another debate")

// ErrKeyReused is Keyed's answer for a key a request that asked
// something else gave.
var ErrKeyReused = errors.New("the idempotency key was given with another request")

// Keyed returns the id of the debate that a start request with this
// idempotency key created, or debate.ErrNotFound when there is none. A
// debate created by another request with that key is ErrKeyReused; one
// created without it, whose id the key's happens to be, ErrKeyCollision.
func (a *App) Keyed(ctx context.Context, idem debate.Idempotency) (string, error) {
	id := KeyedID(idem.Key)
	c, err := a.created(ctx, id)
	switch {
	case err != nil:
		return id, err
	case c.Idempotency == nil || c.Idempotency.Key != idem.Key:
		return id, fmt.Errorf("debate %s: %w; send the request with another key", id, ErrKeyCollision)
	case c.Idempotency.Request != idem.Request:
		return id, fmt.Errorf("debate %s (%s on %q) was created with this key: %w; give each new debate a key of its own", id, c.Format, c.Topic, ErrKeyReused)
	}
	return id, nil
}

// ValidateTopic checks a topic as every front-end must: not empty, valid
// UTF-8 without NUL, a question rather than a document. It returns the trimmed topic.
func ValidateTopic(topic string) (string, error) {
	topic = strings.TrimSpace(topic)
	switch {
	case topic == "":
		return "", setup.Inputf("the topic is empty: ask a question, for example \"Should we use Redis or PostgreSQL for caching?\"")
	case !utf8.ValidString(topic):
		return "", setup.Inputf("the topic is not valid UTF-8")
	case strings.IndexByte(topic, 0) >= 0:
		// PostgreSQL's text cannot hold it: the debate would fail to be
		// stored, after the request was taken (API, batch files).
		return "", setup.Inputf("the topic holds a NUL character (\\u0000): remove it")
	case utf8.RuneCountInString(topic) > MaxTopicLen:
		return "", setup.Inputf("the topic is %d characters; keep it under %d: state the decision, not the background", utf8.RuneCountInString(topic), MaxTopicLen)
	case !setup.HasWords(topic):
		// "-" (standard input, as other tools read it), "?" or "..." is
		// no question: the debate would be created, paid for and argued
		// about nothing.
		return "", setup.Inputf("the topic %q has no words: ask a question, for example \"Should we use Redis or PostgreSQL for caching?\"", topic)
	}
	return topic, nil
}

// ValidateLimits checks budgets and timeouts.
func ValidateLimits(l debate.Limits) error {
	// Named, so that an API client learns which field is wrong (the
	// command line refuses its flags' negatives when it parses them).
	for _, b := range []struct {
		name string
		n    int
	}{{"turn", l.TurnBudget}, {"debate", l.DebateBudget}} {
		if b.n < 0 {
			return setup.Inputf("the %s budget %d is negative: give 0 (unlimited) or a number of tokens", b.name, b.n)
		}
	}
	for _, d := range []struct {
		name string
		d    time.Duration
	}{{"--round-timeout", l.RoundTimeout}, {"--debate-timeout", l.DebateTimeout}, {"--call-timeout", l.CallTimeout}, {"--checkpoint-timeout", l.CheckpointTimeout}} {
		if d.d <= 0 {
			return setup.Inputf("%s %s: give a positive duration such as 2m", d.name, d.d)
		}
	}
	return nil
}

// CheckRoles refuses a model for a role the format has no turn for: a
// model given for it would silently never be used.
func CheckRoles(format debate.Format, mf Models) error {
	r, ok := format.(interface{ Roles() []string })
	if !ok {
		return nil
	}
	for _, spec := range mf.ModelFor {
		role, _, _ := strings.Cut(spec, "=")
		role = strings.TrimSpace(role)
		if !slices.Contains(r.Roles(), role) {
			return setup.Inputf("--model-for %s: the %s format has no role %q; its roles are %s", spec, format.Name(), role, strings.Join(r.Roles(), ", "))
		}
	}
	return nil
}

// Given reports whether any model was named.
func (m Models) Given() bool { return m.Provider != "" || m.Model != "" || len(m.ModelFor) > 0 }

func (a *App) starter(format debate.Format) (setup.Starter, error) {
	s, ok := format.(setup.Starter)
	if !ok {
		return nil, setup.Inputf("format %s cannot be started yet", format.Name())
	}
	return s, nil
}

// price prices a call made with a "provider/model" from the App's table,
// saying whether the model has a price there: local servers cost nothing,
// an unknown model is 0 and not known.
func (a *App) price() func(string, llm.Usage) (float64, bool) {
	table := pricing.Default()
	if a.Prices != nil {
		table = *a.Prices
	}
	return func(model string, u llm.Usage) (float64, bool) {
		provider, name, _ := strings.Cut(model, "/")
		return table.CostFor(provider, name, u)
	}
}

// Start validates a request, builds the debate's options and cast, prepares
// its run and creates the debate. Nothing is created when any of this
// fails. Bad input is a *setup.InputError, a missing model a
// *setup.ConfigError.
func (a *App) Start(ctx context.Context, req StartRequest) (*Session, error) {
	p, err := a.Plan(ctx, req)
	if err != nil {
		return nil, err
	}
	return a.StartPlan(ctx, p, req.Create)
}

// Plan is a start request validated, with its cast and the question it
// asks, before anything is created: a front-end looks for a debate that
// already asks that question (Find, Unfinished) and, when there is none,
// starts from the plan (StartPlan), so that the format's Setup runs once.
type Plan struct {
	req     StartRequest
	format  debate.Format
	starter setup.Starter
	cast    debate.Cast
	// created is the debate.created payload; its Options are nil until
	// the format's Setup has run.
	created debate.Created
	// question is what the request asks of the format: its
	// setup.Questioner's Asks, or else the options Setup built.
	question json.RawMessage
}

// Topic is the plan's topic, trimmed.
func (p *Plan) Topic() string { return p.created.Topic }

// Plan validates a request, resolves its cast and computes the question it
// asks, creating nothing. A format that says its question from the request
// (setup.Questioner) is planned without I/O: a bull vs. bear plan fetches no
// SEC data, so that it neither depends on EDGAR being reachable nor fetches
// what a debate found to ask the same question does not need. For another
// format the question is its options, and Plan runs its Setup; StartPlan
// then uses those options rather than run Setup again. Bad input is a
// *setup.InputError, a missing model a *setup.ConfigError.
func (a *App) Plan(ctx context.Context, req StartRequest) (*Plan, error) {
	topic, err := ValidateTopic(req.Topic)
	if err != nil {
		return nil, err
	}
	req.Topic = topic
	if err := ValidateLimits(req.Limits); err != nil {
		return nil, err
	}
	format, err := a.Formats.Get(req.Format)
	if err != nil {
		return nil, &setup.InputError{Err: err}
	}
	if err := a.checkReads(format, &req.Request); err != nil {
		return nil, err
	}
	if req.Offline && slices.Contains(req.FromConfig, setup.SnapshotName) && !req.Set(setup.SnapshotName) {
		// The config file's snapshot is a default for the runs with a
		// model; offline reads the shipped data anyway, and a default is
		// not the --snapshot that --offline refuses.
		req.Values = maps.Clone(req.Values)
		delete(req.Values, setup.SnapshotName)
	}
	req.Defaults(setup.OptionsOf(format))
	if err := CheckRoles(format, req.Models); err != nil {
		return nil, err
	}
	var (
		cast      debate.Cast
		models    map[string]string
		endpoints map[string]string
	)
	switch {
	case req.Offline && req.Bool(setup.SnapshotName):
		return nil, CheckDataFlags(true, true)
	case req.Offline && req.Models.Given():
		return nil, setup.Inputf("--offline runs with no model and no network; drop --provider/--model/--model-for, or use --snapshot to run your model on the SEC data shipped with Parley")
	case req.Offline && !runsOffline(format):
		return nil, setup.Inputf("--offline runs with no model, and the %s format needs one; use --snapshot for the SEC data shipped with Parley with your model", format.Name())
	case req.Offline:
		// No model at all, whatever the environment offers.
	default:
		if cast, models, endpoints, err = ResolveCastEndpoints(req.Models, a.Env.Getenv); err != nil {
			return nil, &setup.ConfigError{Err: err}
		}
	}
	starter, err := a.starter(format)
	if err != nil {
		return nil, err
	}
	if n, ok := format.(setup.TopicNormalizer); ok {
		req.Topic = n.NormalizeTopic(req.Topic)
	}
	p := &Plan{req: req, format: format, starter: starter, cast: cast,
		created: debate.Created{Format: format.Name(), Topic: req.Topic, Limits: req.Limits, Models: models, Endpoints: endpoints,
			Idempotency: req.Idempotency}}
	if !req.Offline && !runsOffline(format) {
		if err := setup.NeedModel(format.Name(), &cast); err != nil {
			return nil, noModel(ctx, a.Env, p, err)
		}
	}
	if q, ok := format.(setup.Questioner); ok {
		if p.question, err = q.Asks(a.Env, &p.req.Request); err != nil {
			return nil, err
		}
		return p, nil
	}
	if p.created.Options, err = starter.Setup(ctx, a.Env, &p.req.Request); err != nil {
		return nil, err
	}
	p.question = p.created.Options
	return p, nil
}

// noModel is the error of a plan whose format needs a model when none is
// configured (noModelErr), or the request's own error when it has one: a
// person fixes the flags they typed before setting up a model. The request
// is checked as the format's setup checks it but quietly, without looking
// anything up where the format can say so (setup.Questioner): a debate that
// cannot run has nothing to note (council's company lookup, crux's personas).
func noModel(ctx context.Context, env setup.Env, p *Plan, noModelErr error) error {
	env.Notice = nil
	var err error
	if q, ok := p.format.(setup.Questioner); ok {
		_, err = q.Asks(env, &p.req.Request)
	} else {
		_, err = p.starter.Setup(ctx, env, &p.req.Request)
	}
	if err != nil {
		return err
	}
	return noModelErr
}

// StartPlan creates the debate a plan describes and prepares its run,
// running the format's Setup unless Plan ran it. create, when not nil,
// stores the debate.created event in place of an append to the Store (see
// StartRequest.Create). Nothing is created when any of this fails.
func (a *App) StartPlan(ctx context.Context, p *Plan, create func(ctx context.Context, created debate.Event) error) (*Session, error) {
	created := p.created
	if created.Options == nil {
		opts, err := p.starter.Setup(ctx, a.Env, &p.req.Request)
		if err != nil {
			return nil, err
		}
		created.Options = opts
	}
	// A queued debate is prepared here only to refuse what its worker
	// would refuse: the worker prepares it again to run it, and the data
	// work (the data-only agents' SEC facts) is left to it.
	queued := create != nil
	s, err := a.prepare(ctx, p.format, p.starter, created.Topic, created.Options, p.cast, p.req.Offline, queued)
	if err != nil {
		return nil, err
	}
	s.queued = queued
	a.noteDataOnly(p.req.Offline, s.DataOnly)
	s.ID, s.Models = NewID(), created.Models
	if created.Idempotency != nil {
		s.ID = KeyedID(created.Idempotency.Key)
	}
	if create != nil {
		e, err := debate.NewEvent(s.ID, a.now(), created)
		if err != nil {
			return nil, err
		}
		if err := create(ctx, e); err != nil {
			return nil, fmt.Errorf("create debate %s: %w", s.ID, err)
		}
		return s, nil
	}
	if err := s.runner.Create(ctx, s.ID, created); err != nil {
		return nil, err
	}
	return s, nil
}

// sameQuestion reports whether a recorded debate asks the question a plan
// asks: the same format, the same topic (in any case: a question, or a
// ticker), the same options where the format's request decides them
// (setup.Questioner), compared as JSON values rather than bytes, and the
// same cast, none for data-only agents. Limits and endpoints are how a
// debate runs, not what it asks. Every front-end decides by it, through
// Find.
//
// The cast compared is the one the debate was created with, not as a
// resume changed it: a change is a person's explicit choice to finish that
// very debate with another model (one that kept failing, say), and the
// debate still answers the question it was asked; rerunning the batch lists
// it rather than paying for the same question again.
func (a *App) sameQuestion(recorded debate.Created, p *Plan) (bool, error) {
	if recorded.Format != p.created.Format || !sameTopic(recorded.Topic, p.created.Topic) || !maps.Equal(recorded.Models, p.created.Models) {
		return false, nil
	}
	x := []byte(recorded.Options)
	if q, ok := p.format.(setup.Questioner); ok {
		var err error
		if x, err = q.Question(x); err != nil {
			return false, fmt.Errorf("the options of a recorded %s debate: %w", p.format.Name(), err)
		}
	}
	return sameJSON(x, p.question)
}

// sameTopic reports whether two topics are one: a case difference changes
// neither a question nor a ticker.
func sameTopic(x, y string) bool {
	return strings.EqualFold(strings.TrimSpace(x), strings.TrimSpace(y))
}

// Earlier says which of the debates already there Find considers.
type Earlier struct {
	// Unfinished keeps only debates that have not completed.
	Unfinished bool
	// Since, when not zero, keeps only debates created or updated at or
	// after it.
	Since time.Time
}

// Find returns the newest debate that asks the question p asks
// (sameQuestion) among the earlier debates which selects, or nil when there
// is none. It reads each candidate's first event only.
func (a *App) Find(ctx context.Context, p *Plan, which Earlier) (*debate.Summary, error) {
	sums, err := a.Store.List(ctx, debate.ListFilter{Format: p.created.Format})
	if err != nil {
		return nil, err
	}
	for i, s := range sums { // newest first
		switch {
		case !sameTopic(s.Topic, p.created.Topic),
			which.Unfinished && s.Status == debate.StatusCompleted,
			!which.Since.IsZero() && s.Created.Before(which.Since) && s.Updated.Before(which.Since):
			continue
		}
		recorded, err := a.created(ctx, s.ID)
		if err != nil {
			return nil, err
		}
		same, err := a.sameQuestion(recorded, p)
		if err != nil {
			return nil, fmt.Errorf("debate %s: %w ('parley delete %s' removes it)", s.ID, err, s.ID)
		}
		if same {
			return &sums[i], nil
		}
	}
	return nil, nil
}

// Unfinished finds the newest debate that has not ended and asks the
// question p asks: the spec's resume flow offers to resume it rather than
// start anew. It returns nil when there is none.
//
// The summary's Status is the one to show (debate.Summary.Shown): a
// debate queued for a worker, or run by another process, is not one to
// resume here; RunElsewhere says so.
func (a *App) Unfinished(ctx context.Context, p *Plan) (*debate.Summary, error) {
	found, err := a.Find(ctx, p, Earlier{Unfinished: true})
	if err != nil || found == nil {
		return found, err
	}
	found.Status = found.Shown(a.now(), debate.OwnerAlive)
	return found, nil
}

// RunElsewhere says where a debate of the shown status s runs when
// something other than this process runs it, in words that follow "is":
// queued for a worker, running or waiting at a checkpoint under another
// runner's live lease. ok is false for a debate nothing runs (paused,
// interrupted, failed), which can be resumed here.
func RunElsewhere(s debate.Status) (where string, ok bool) {
	switch s {
	case debate.StatusQueued:
		return "queued for a worker", true
	case debate.StatusRunning:
		return "running in another process", true
	case debate.StatusCheckpoint:
		return "waiting at a checkpoint in another process", true
	}
	return "", false
}

// created reads what debate id was created with: its first event, not
// the rest of its log.
func (a *App) created(ctx context.Context, id string) (debate.Created, error) {
	evs, err := a.Store.LoadN(ctx, id, 0, 1)
	if err != nil {
		return debate.Created{}, err
	}
	var c debate.Created
	if len(evs) == 0 || evs[0].Type != debate.TypeCreated {
		return c, fmt.Errorf("debate %s does not begin with its debate.created event: 'parley delete %s' removes it", id, id)
	}
	if err := evs[0].Decode(&c); err != nil {
		return c, fmt.Errorf("debate %s: %w ('parley delete %s' removes it)", id, err, id)
	}
	return c, nil
}

// sameJSON reports whether two JSON documents hold the same value, whatever
// their key order and spacing; none at all is null.
func sameJSON(x, y []byte) (bool, error) {
	var vx, vy any
	for _, d := range []struct {
		b []byte
		v *any
	}{{x, &vx}, {y, &vy}} {
		if len(d.b) == 0 {
			continue
		}
		if err := json.Unmarshal(d.b, d.v); err != nil {
			return false, fmt.Errorf("compare debate options: %w", err)
		}
	}
	return reflect.DeepEqual(vx, vy), nil
}

// prepare readies a run: the protocol, the format's tools and responders,
// the runner.
// queued prepares it only to check it (setup.Run.Queued).
func (a *App) prepare(ctx context.Context, format debate.Format, starter setup.Starter, topic string, opts json.RawMessage, cast debate.Cast, offline, queued bool) (*Session, error) {
	proto, err := format.Protocol(topic, opts)
	if err != nil {
		return nil, &setup.InputError{Err: err}
	}
	tools, err := starter.Prepare(ctx, a.Env, &setup.Run{Topic: topic, Options: opts, Offline: offline, Cast: &cast, Queued: queued})
	if err != nil {
		return nil, err
	}
	if a.WrapProvider != nil {
		cast = wrapCast(cast, a.WrapProvider)
	}
	runner := &debate.Runner{Store: a.Store, Cast: cast, Tools: tools, Now: a.Env.Now, Price: a.price(), Log: a.Log, Owner: a.Owner, DataPace: a.DataPace, Handoff: a.Handoff}
	return &Session{Format: format, Topic: topic, Options: opts, DataOnly: slices.Sorted(maps.Keys(cast.Responders)),
		app: a, runner: runner, proto: proto}, nil
}

// wrapCast wraps the provider of every model of a cast.
func wrapCast(c debate.Cast, wrap func(llm.Provider) llm.Provider) debate.Cast {
	if c.Default.Provider != nil {
		c.Default.Provider = wrap(c.Default.Provider)
	}
	for _, m := range []*map[string]debate.Model{&c.ByRole, &c.ByAgent} {
		out := make(map[string]debate.Model, len(*m))
		for k, v := range *m {
			if v.Provider != nil {
				v.Provider = wrap(v.Provider)
			}
			out[k] = v
		}
		*m = out
	}
	return c
}

// ErrCompleted is returned by Resume for a debate that has ended.
var ErrCompleted = errors.New("the debate is already completed")

// Resume loads a debate that has not ended and prepares the rest of its
// run with its recorded cast: a resume never picks up another model from
// the environment; only the request's Models change it, and the change is
// recorded.
func (a *App) Resume(ctx context.Context, req ResumeRequest) (*Session, error) {
	id := req.ID
	events, err := a.Store.Load(ctx, id, 0)
	if err != nil {
		if errors.Is(err, debate.ErrNotFound) {
			return nil, setup.Inputf("no debate %s: 'parley list' shows the debates", id)
		}
		return nil, err
	}
	st, err := debate.Fold(events)
	if err != nil {
		return nil, err
	}
	if st.Status == debate.StatusCompleted {
		return nil, fmt.Errorf("debate %s: %w", id, ErrCompleted)
	}
	format, err := a.Formats.Get(st.Format)
	if err != nil {
		return nil, err
	}
	if err := CheckRoles(format, req.Models); err != nil {
		return nil, err
	}
	models, endpoints := maps.Clone(st.Models), maps.Clone(st.Endpoints)
	if req.Offline && len(models) > 0 {
		return nil, setup.Inputf("debate %s runs with %s; --offline would switch it to data-only agents: resume without --offline", id, DescribeCast(models, nil))
	}
	var changes []debate.CastChanged
	if req.Models.Given() {
		if changes, err = OverrideCast(req.Models, models, endpoints, a.Env.Getenv); err != nil {
			return nil, &setup.ConfigError{Err: err}
		}
		for _, c := range changes {
			if models == nil {
				models = map[string]string{}
			}
			models[c.Role] = c.To
			if p, _, _ := strings.Cut(c.To, "/"); c.Endpoint != "" {
				if endpoints == nil {
					endpoints = map[string]string{}
				}
				endpoints[p] = c.Endpoint
			}
		}
	}
	cast, err := CastFromRecord(id, models, endpoints, a.Env.Getenv)
	if err != nil {
		return nil, &setup.ConfigError{Err: err}
	}
	starter, err := a.starter(format)
	if err != nil {
		return nil, err
	}
	s, err := a.prepare(ctx, format, starter, st.Topic, st.Options, cast, req.Offline, false)
	if err != nil {
		return nil, err
	}
	s.ID, s.Models, s.Changes = id, models, changes
	s.Notices = resumeNotices(changes, st.Endpoints, models, endpoints, a.Env.Getenv)
	if req.Limits != nil {
		l := st.Limits
		req.Limits(&l)
		if err := ValidateLimits(l); err != nil {
			return nil, err
		}
		// A budget already spent would pause the debate again before its
		// next turn, on the same advice to give a larger one.
		if used := st.Usage.Total(); l.DebateBudget != st.Limits.DebateBudget && l.DebateBudget > 0 && l.DebateBudget <= used {
			return nil, setup.Inputf("--debate-budget %d: debate %s has used %d tokens already; give more than %d, or 0 for no limit", l.DebateBudget, id, used, used)
		}
		s.runner.Limits = &l
	}
	for _, c := range changes {
		s.runner.OnStart = append(s.runner.OnStart, c)
	}
	return s, nil
}

// Run runs the debate until it ends, pauses (the context is cancelled, a
// budget or timeout is reached, a checkpoint gets no answer) or fails.
// human answers checkpoints; nil pauses the debate at each. Run holds the
// debate's lease while it runs.
func (s *Session) Run(ctx context.Context, human debate.Human) (*debate.State, error) {
	if s.queued {
		return nil, fmt.Errorf("debate %s was queued for a worker, which runs it: resume it (app.Resume) to run it here", s.ID)
	}
	s.runner.Human = human
	return s.runner.Run(ctx, s.ID, s.proto)
}

// RunLimits are the limits the run holds the debate to: those a resume
// gave (ResumeRequest.Limits), which are not recorded in its log, else
// the recorded ones of st. A pause's advice ("--round-timeout D, D above
// 1s") names these: the recorded ones named the limit the run did not hold
// to.
func (s *Session) RunLimits(st *debate.State) debate.Limits {
	if s.runner.Limits != nil {
		return *s.runner.Limits
	}
	return st.Limits
}

// Hint queues guidance for an agent's next turn of the running debate.
func (s *Session) Hint(ctx context.Context, target, text string) (debate.HintQueued, error) {
	return s.runner.Hint(ctx, target, text)
}

// Describer is the format's one-line description of a turn, nil when it
// has none.
func (s *Session) Describer() func(*debate.Turn) string {
	if d, ok := s.Format.(interface{ Describe(*debate.Turn) string }); ok {
		return d.Describe
	}
	return nil
}

// CheckDataFlags refuses --offline with --snapshot: --offline already reads
// the shipped SEC data, with no model; --snapshot reads it with a model.
// Together they ask for and against a model, and no guess between them is
// safe. A front-end that checks its flags before it plans anything (a
// batch) calls it too.
func CheckDataFlags(offline, snapshot bool) error {
	if offline && snapshot {
		return setup.Inputf("--offline and --snapshot both use the SEC data shipped with Parley: --offline with no model (data-only agents), --snapshot with your model; give one of the two")
	}
	return nil
}

// runsOffline reports whether a format can run with no model at all.
func runsOffline(format debate.Format) bool {
	o, ok := format.(interface{ RunsOffline() bool })
	return ok && o.RunsOffline()
}

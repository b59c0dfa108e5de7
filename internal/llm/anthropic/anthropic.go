// Package anthropic is the llm.Provider for Anthropic's Messages API, on the
// official SDK (anthropic-sdk-go/v2).
//
// It streams replies, assembles tool calls from input_json_delta events, asks
// for structured output (see StructuredMode), marks cache breakpoints with
// cache_control, and reports cache read and write tokens. A turn the API
// pauses (stop_reason pause_turn) is continued within the call, its
// paused content sent back as the API asks (see stopPauseTurn). The SDK's own retries
// are off: the runner owns retries, so that every provider retries the same way.
//
// A compatible server in front of a reasoning model without a reasoning
// parser sends its thinking in text blocks inside <think> tags; it is
// dropped as the OpenAI provider drops it (see package think).
//
// Token accounting: llm.Usage.InputTokens is the API's input_tokens, which
// excludes the cached prefix; cache reads and writes are counted apart.
//
// Request.Temperature is not sent: the API version this SDK speaks (2026-10-21)
// no longer takes sampling parameters, and current models answer 400 to them.
package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/internal/apierr"
	"github.com/parleyhq/parley/internal/llm/internal/permodel"
	"github.com/parleyhq/parley/internal/llm/internal/saidonce"
	"github.com/parleyhq/parley/internal/llm/internal/textcall"
	"github.com/parleyhq/parley/internal/llm/internal/think"
)

// DefaultBaseURL is the API's address when Config.BaseURL is empty.
const DefaultBaseURL = "https://api.anthropic.com"

// DefaultMaxTokens bounds a reply when neither the Request nor the Config does;
// the API requires a bound.
const DefaultMaxTokens = 8192

// TagHeader carries llm.Request.Tag. The API ignores unknown headers; the fake
// server scripts replies by it.
const TagHeader = "X-Parley-Turn"

// StructuredMode is how a Request.Schema is asked for.
type StructuredMode string

const (
	// StructuredOutputFormat sends the schema as output_config.format
	// (json_schema): the reply text is the document. It is the default because
	// current models (Claude Sonnet 5.5 and later) refuse a forced tool_choice
	// with a 400.
	StructuredOutputFormat StructuredMode = "output_format"
	// StructuredForcedTool sends the schema as the input_schema of a tool that
	// tool_choice forces; the tool's input is yielded as the reply text. For
	// older models and Anthropic-compatible servers without output_config.
	StructuredForcedTool StructuredMode = "forced_tool"
)

// Config configures a Provider.
type Config struct {
	// APIKey authenticates the calls (the SDK sends it as a Bearer token).
	// Required.
	APIKey string
	// BaseURL is the API root, without /v1 (ANTHROPIC_BASE_URL).
	// Default DefaultBaseURL.
	BaseURL string
	// HTTPClient makes the requests. Default: a client without a timeout, since
	// streams run long (bound calls with the context instead), that does
	// not follow a redirect to another server (see apierr.CheckRedirect).
	HTTPClient *http.Client
	// MaxTokens is used when a Request has no MaxTokens. Default DefaultMaxTokens.
	MaxTokens int
	// Structured chooses how Request.Schema is sent first. Default
	// StructuredOutputFormat. A model or server that refuses the mode's
	// field gets the other mode, remembered for the model (see shape.go).
	Structured StructuredMode
	// Logger is told, once per model, how calls were changed to suit the
	// server (a field it refused, reasoning dropped from the text), so
	// that a user sees why. Default slog.Default().
	Logger *slog.Logger
	// BaseURLFrom says where BaseURL came from when ANTHROPIC_BASE_URL
	// did not set it, for the errors that ask to correct the address
	// (see apierr.Mapper.BaseURLFrom).
	BaseURLFrom string
}

// ConfigFromEnv reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL through getenv
// (os.Getenv in production, a map in tests).
func ConfigFromEnv(getenv func(string) string) Config {
	return Config{APIKey: getenv("ANTHROPIC_API_KEY"), BaseURL: getenv("ANTHROPIC_BASE_URL")}
}

// Provider streams Anthropic model calls. It is safe for concurrent use.
type Provider struct {
	client sdk.Client
	cfg    Config
	errs   apierr.Mapper
	// shapes remembers, per model, the fields the API refused and its cap
	// on max_tokens (see shape.go).
	shapes *permodel.Map[shape]
	// thinks remembers how each model's text carries reasoning (see
	// package think): Anthropic's models send it in thinking blocks, but
	// a compatible server in front of a reasoning model without a
	// reasoning parser (vLLM's /v1/messages, LiteLLM) sends it in the
	// text, inside <think> tags, as OpenAI-compatible servers do.
	thinks *permodel.Map[think.Mode]
	// ownAPI is set when BaseURL is Anthropic's own API, which always
	// sends reasoning in thinking blocks: its text is the answer as it
	// comes, even one that starts with a <think> tag.
	ownAPI bool
	// textCalls remembers the models whose tool calls came as text and
	// were read, so that it is said once per model.
	textCalls *permodel.Map[bool]
	// cacheCounts remembers, per model, what a compatible server's
	// counts showed of its input_tokens (see checkCacheCounts).
	cacheCounts *permodel.Map[cacheReading]
	// unknownStops holds "model\x00reason" for each stop reason not
	// known to Parley that a model's replies ended with, so that each
	// is said once; a bounded number of them, for a hostile server may
	// send a new one with every reply.
	unknownStops saidonce.Set
	// lateFailures remembers the models whose server failed after a
	// reply was complete, so that it is said at Warn once per model (and
	// at Debug after), not with every reply of a server that always
	// does.
	lateFailures *permodel.Map[bool]
	log          *slog.Logger
}

// cacheReading is what a model's replies showed of how its server counts
// input_tokens.
type cacheReading int

const (
	cacheUnknown   cacheReading = iota
	cacheApart                  // input_tokens below the cached tokens: Anthropic's meaning
	cacheAmbiguous              // counts that fit both meanings, said once
)

// New returns a Provider for cfg.
func New(cfg Config) (*Provider, error) {
	if strings.TrimSpace(cfg.APIKey) == "" {
		return nil, errors.New("anthropic: no API key: set ANTHROPIC_API_KEY")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	// "localhost:8080" parses as a URL, with "localhost" as its scheme:
	// every call then failed, retried, with "unsupported protocol scheme".
	if u, err := url.Parse(cfg.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("anthropic: base URL %q is not an http:// or https:// address: correct ANTHROPIC_BASE_URL, for example https://api.anthropic.com", cfg.BaseURL)
	}
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = DefaultMaxTokens
	}
	switch cfg.Structured {
	case "":
		cfg.Structured = StructuredOutputFormat
	case StructuredOutputFormat, StructuredForcedTool:
	default:
		return nil, fmt.Errorf("anthropic: structured mode %q: want %q or %q", cfg.Structured, StructuredOutputFormat, StructuredForcedTool)
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{CheckRedirect: apierr.CheckRedirect}
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	client := sdk.NewClient(
		// Configuration comes from Config alone, so that what the user set is
		// what is used; ConfigFromEnv reads the environment explicitly.
		option.WithoutEnvironmentDefaults(),
		option.WithAPIKey(cfg.APIKey),
		option.WithBaseURL(cfg.BaseURL+"/"),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
		option.WithMiddleware(apierr.RejectRedirect, apierr.LimitErrorBody, apierr.RejectWebPage, repairStream),
	)
	return &Provider{
		client:       client,
		cfg:          cfg,
		shapes:       permodel.New(shape{structured: cfg.Structured}),
		thinks:       permodel.New(think.Unknown),
		ownAPI:       ownAPI(cfg.BaseURL),
		textCalls:    permodel.New(false),
		cacheCounts:  permodel.New(cacheUnknown),
		lateFailures: permodel.New(false),
		log:          log,
		errs:         apierr.Mapper{Provider: "anthropic", BaseURL: cfg.BaseURL, BaseURLEnv: "ANTHROPIC_BASE_URL", BaseURLFrom: cfg.BaseURLFrom, KeyEnv: "ANTHROPIC_API_KEY", Public: ownAPI(cfg.BaseURL)},
	}, nil
}

// Name returns "anthropic".
func (p *Provider) Name() string { return "anthropic" }

// Caps reports tools, structured output and prompt caching.
func (p *Provider) Caps() llm.Caps { return llm.Caps{Tools: true, JSONSchema: true, PromptCache: true} }

// Stream sends req and yields the reply as it arrives.
func (p *Provider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		var opts []option.RequestOption
		if req.Tag != "" {
			opts = append(opts, option.WithHeader(TagHeader, req.Tag))
		}
		// The stream's own context, to end a stream whose message is
		// over but whose body is held open (see afterStop). Each message
		// of a paused turn (see stopPauseTurn) has its own.
		streamCtx, stopStream := context.WithCancel(ctx)
		defer func() { stopStream() }()
		stream, forced, err := p.open(streamCtx, req, nil, opts)
		if err != nil {
			yield(llm.Chunk{}, err)
			return
		}
		// Closing releases the connection when the caller breaks early.
		defer func() { stream.Close() }()
		var (
			// stopped is set by a message_delta with a stop_reason:
			// the message's content is whole (see afterStop), unless
			// content came after it (moreAfterStop), off the API's
			// order of events.
			stopped, moreAfterStop bool
			// heldBytes counts the bytes of the message held rather
			// than passed on (see tooMuchHeld).
			heldBytes int
			// grace ends the stream afterStop after its stop_reason;
			// each message of a paused turn has its own.
			grace = apierr.NewGrace(afterStop, stopStream)
			// sent is what the messages of a paused turn sent so far,
			// sent back to continue it; spent is what they cost.
			sent   content
			cont   []sdk.ContentBlockParamUnion
			pauses int
			spent  llm.Usage
		)
		defer func() { grace.Stop() }()

		var (
			usage llm.Usage
			// Compatible servers may send no counts: they are then
			// unknown, not zero.
			counted bool
			stop    string
			rawStop string // the stop_reason as sent
			// detail is what stop_details says of a refusal.
			detail  string
			done    bool
			partial = map[int64]*toolBuf{}
			// opened holds the indexes of the blocks started and not
			// stopped: a server tool's block (server_tool_use) streams
			// its input too.
			opened = map[int64]bool{}
			cut    *llm.Error
			// Text is read through the filter (see Provider.thinks);
			// a forced tool's input, yielded as text, is not text.
			thinking = think.New(p.thinks.Get(req.Model))
			// answered is set once a tool call or a forced tool's
			// document was yielded.
			answered bool
			// ids are the tool call IDs yielded.
			ids = map[string]bool{}
			// reasoning keeps (up to think.MaxHeld) what a compatible
			// server sent in thinking blocks, for a reply that has
			// nothing else (see below).
			reasoning strings.Builder
			// Tool calls a compatible server without a tool-call parser
			// passed on as text (see package textcall) are held back from
			// the answer; Anthropic's own API parses its models' calls.
			textCalls = textcall.New(nil, false)
		)
		if !p.ownAPI {
			textCalls = textcall.New(req.Tools, req.Schema == nil)
		}
		// text passes a text delta on through the filter, and reports
		// whether to go on; a reply found to have passed reasoning on as
		// the answer fails.
		text := func(s string) bool {
			if p.ownAPI {
				return yield(llm.Chunk{Text: s}, nil)
			}
			out, late := thinking.Feed(s)
			if late {
				p.learnThink(ctx, req.Model, think.Orphan)
				yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrMalformed, Err: think.LateError(req.Model)})
				return false
			}
			out = textCalls.Feed(out)
			return out == "" || yield(llm.Chunk{Text: out}, nil)
		}
		// endBlock ends the tool block at index, if one is open: its
		// call (or a forced tool's document) is yielded whole. It
		// reports whether to go on.
		endBlock := func(index int64) bool {
			tb := partial[index]
			if tb == nil {
				// A text block, or a second stop for one block (LiteLLM
				// has sent two): nothing to end.
				return true
			}
			delete(partial, index)
			if err := tb.named(); err != nil {
				yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrMalformed, Err: err})
				return false
			}
			args, err := tb.complete()
			if err != nil {
				// Reported at the end: if max_tokens cut the input, the
				// reply is incomplete, which the stop reason says.
				if cut == nil {
					cut = &llm.Error{Provider: p.Name(), Kind: llm.ErrMalformed, Err: err}
				}
				return true
			}
			id := tb.id
			if id == "" || ids[id] {
				// Some compatible servers send no ID, or one for
				// every call: the runner pairs each result with its
				// call by ID, unique within the reply.
				id = fmt.Sprintf("toolu_%d_%s", index, tb.name)
			}
			ids[id] = true
			c := llm.Chunk{ToolCall: &llm.ToolCall{ID: id, Name: tb.name, Args: args}}
			if forced != "" && tb.name == forced {
				// Structured output through a forced tool: the caller asked
				// for a document, not a tool call.
				c = llm.Chunk{Text: string(args)}
			}
			answered = true
			return yield(c, nil)
		}
		// endOpenBlocks ends, in order, the tool blocks still open when
		// the message is over: a compatible server or proxy that sends
		// no content_block_stop ends them with the message. (Not when
		// the next block starts: some proxies interleave the deltas of
		// blocks open at once, each ended by its own stop.)
		endOpenBlocks := func() bool {
			for _, i := range slices.Sorted(maps.Keys(partial)) {
				if !endBlock(i) {
					return false
				}
			}
			return true
		}
		// One message, or each message of a paused turn in turn.
		for {
			for stream.Next() {
				ev := stream.Current()
				sent.add(ev)
				if stopped && strings.HasPrefix(string(ev.Type), "content_block_") {
					moreAfterStop = true
				}
				switch ev.Type {
				case "message_start":
					if r := string(ev.Message.StopReason); r != "" {
						// Not the API's (its message_start has a null
						// stop_reason) but a final word all the same.
						rawStop = r
						stop = stopReason(rawStop, forced != "")
					}
					u := ev.Message.Usage
					counted = counted || u.JSON.InputTokens.Valid() || u.JSON.OutputTokens.Valid()
					usage = llm.Usage{
						InputTokens:      int(u.InputTokens),
						OutputTokens:     int(u.OutputTokens),
						CacheReadTokens:  int(u.CacheReadInputTokens),
						CacheWriteTokens: int(u.CacheCreationInputTokens),
					}
				case "content_block_start":
					if heldBytes += len(ev.JSON.ContentBlock.Raw()); heldBytes > apierr.MaxWholeReply {
						yield(llm.Chunk{}, p.tooMuchHeld())
						return
					}
					if bad := apierr.NotString(ev.ContentBlock.JSON.Text.Raw()); bad != "" {
						yield(llm.Chunk{}, p.wrongType("content_block_start", "content_block.text", bad))
						return
					}
					// A block started at the index of a tool block still
					// open (a server that sends no content_block_stop,
					// or numbers every block 0) ends that one: it was
					// replaced, and its call lost.
					if !endBlock(ev.Index) {
						return
					}
					opened[ev.Index] = true
					switch cb := ev.ContentBlock; cb.Type {
					case "tool_use":
						tb := &toolBuf{id: cb.ID, name: cb.Name}
						// The API starts every tool block with an empty input
						// and streams it; some compatible servers send it
						// whole here and stream nothing.
						switch in := cb.Input.(type) {
						case map[string]any:
							if len(in) > 0 {
								tb.start, _ = json.Marshal(in)
							}
						case string:
							// Sent encoded twice, a string holding the
							// object, as some compatible layers send
							// arguments; anything else in it fails as
							// arguments that are not an object do.
							if strings.TrimSpace(in) != "" {
								tb.start = []byte(in)
							}
						case nil:
						default:
							// A list, a number: no arguments a call
							// takes, and passed over they were lost.
							tb.start, _ = json.Marshal(in)
						}
						partial[ev.Index] = tb
					case "text":
						// Likewise some send the first text here.
						if cb.Text != "" && !text(cb.Text) {
							return
						}
					default:
						if cb.Text != "" {
							// Only a text block has text: this one's
							// is not known to be the answer, nor known
							// not to be, and passed over it was lost.
							yield(llm.Chunk{}, p.unknownText("content block", string(cb.Type), cb.Text))
							return
						}
					}
				case "content_block_delta":
					// What is held rather than passed on: a tool's input
					// until its block ends, thinking and signatures for
					// a paused turn. Text is passed on, and its reader
					// bounds it.
					if heldBytes += len(ev.Delta.PartialJSON) + len(ev.Delta.Thinking) + len(ev.Delta.Signature); heldBytes > apierr.MaxWholeReply {
						yield(llm.Chunk{}, p.tooMuchHeld())
						return
					}
					if raw := strings.TrimSpace(ev.JSON.Delta.Raw()); raw != "" && raw[0] != '{' && raw != "null" && raw != `""` && raw != "[]" {
						// A delta of another type than an object (a
						// string, a list): the SDK, which marks a
						// union field valid whatever it holds, read
						// it as empty, and the text in it was lost
						// while the rest stood as the whole reply.
						// The server wrote it so: it is asked once
						// more, as invalid JSON is.
						yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrMalformed, Tries: apierr.MalformedTries,
							Err: fmt.Errorf("the server sent a content_block_delta whose delta is not an object: %s: its output is broken; if this repeats, report it to whoever runs the server or use another", apierr.Detail(raw))})
						return
					}
					if bad := apierr.NotString(ev.Delta.JSON.Text.Raw()); bad != "" {
						yield(llm.Chunk{}, p.wrongType("content_block_delta", "delta.text", bad))
						return
					}
					switch ev.Delta.Type {
					case "text_delta":
						if ev.Delta.Text != "" && !text(ev.Delta.Text) {
							return
						}
					case "", "text":
						// A text delta without its type, or with its
						// block's ("text"): what else a delta with text
						// could be, the API has not.
						if ev.Delta.Text != "" && !text(ev.Delta.Text) {
							return
						}
					case "input_json_delta":
						tb := partial[ev.Index]
						if tb == nil && !opened[ev.Index] && strings.TrimSpace(ev.Delta.PartialJSON) != "" {
							// Input of no call: without its tool_use
							// block's start, which names the tool, there
							// is no call to give it to, and it was lost.
							yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrMalformed, Tries: apierr.MalformedTries,
								Err: fmt.Errorf("the server sent tool input (input_json_delta) for content block %d, which no tool_use content_block_start opened, or which had ended: "+
									"the call it belongs to is unknown; its output is broken; if this repeats, report it to whoever runs the server or use another", ev.Index)})
							return
						}
						if tb != nil {
							tb.args.WriteString(ev.Delta.PartialJSON)
						}
					case "thinking_delta":
						if !p.ownAPI && reasoning.Len()+len(ev.Delta.Thinking) <= think.MaxHeld {
							reasoning.WriteString(ev.Delta.Thinking)
						}
					case "signature_delta", "citations_delta":
					default:
						if ev.Delta.Text != "" {
							yield(llm.Chunk{}, p.unknownText("content_block_delta of type", string(ev.Delta.Type), ev.Delta.Text))
							return
						}
					}
				case "content_block_stop":
					delete(opened, ev.Index)
					if !endBlock(ev.Index) {
						return
					}
				case "message_delta":
					if bad := apierr.NotString(ev.Delta.JSON.StopReason.Raw()); bad != "" {
						// Read as its raw JSON, a reason of no meaning,
						// taken for the end of the reply.
						yield(llm.Chunk{}, p.wrongType("message_delta", "delta.stop_reason", bad))
						return
					}
					if r := string(ev.Delta.StopReason); r != "" {
						rawStop = r
						stop = stopReason(rawStop, forced != "")
						stopped = true
					}
					if d := stopDetail(ev.Delta.StopDetails); d != "" {
						detail = d
					}
					// The final counts; fields left out of the event keep the
					// message_start values.
					u := ev.Usage
					counted = counted || u.JSON.OutputTokens.Valid() || u.JSON.InputTokens.Valid()
					if u.JSON.OutputTokens.Valid() {
						usage.OutputTokens = int(u.OutputTokens)
					}
					if u.JSON.InputTokens.Valid() && u.InputTokens > 0 {
						usage.InputTokens = int(u.InputTokens)
					}
					if u.JSON.CacheReadInputTokens.Valid() && u.CacheReadInputTokens > 0 {
						usage.CacheReadTokens = int(u.CacheReadInputTokens)
					}
					if u.JSON.CacheCreationInputTokens.Valid() && u.CacheCreationInputTokens > 0 {
						usage.CacheWriteTokens = int(u.CacheCreationInputTokens)
					}
				case "message_stop":
					done = true
				}
				if done {
					// The message is over: what a server sends after it
					// (a second message, garbage) is not part of it.
					break
				}
				// After the stop_reason only message_stop is due (and, from
				// some proxies, a message_delta with the counts): a stream
				// held open without it is given afterStop without more
				// content. Other events (counts sent again and again) do
				// not hold it open: they held the call to its deadline,
				// failed as a timeout and retried.
				grace.Event(stopped, moreAfterStop)
			}
			if err := stream.Err(); err != nil && !(grace.Over() && ctx.Err() == nil) {
				e := p.mapErr(ctx, req.Model, err)
				if !stopped || moreAfterStop || ctx.Err() != nil {
					yield(llm.Chunk{}, e)
					return
				}
				// The message_delta with the stop_reason came, and
				// with it the final counts: the API sends every content
				// block, whole, before it, and after it only
				// message_stop, which carries nothing. An error event
				// (the API's overloaded_error) or a dropped connection
				// there cuts nothing of the reply; failing the call
				// would have it retried and paid for twice.
				apierr.LateFailure(ctx, p.log, p.lateFailures, p.Name(), req.Model, "stop_reason", rawStop, e)
			}
			if !done && !stopped {
				// A stream that ends after the message_delta with the
				// stop_reason is whole without message_stop, which compatible
				// servers and proxies leave out; one that ends before it was
				// cut.
				yield(llm.Chunk{}, p.errs.StreamCut())
				return
			}
			if !endOpenBlocks() {
				return
			}
			if rawStop == stopPauseTurn {
				// The API paused a long turn: it goes on when what it sent
				// is sent back, as the last message of the same request.
				// The text already passed on stays; the next message's is
				// its continuation.
				more, err := sent.blocks()
				if err == nil && pauses == maxPauses {
					err = fmt.Errorf("it paused %d times", pauses+1)
				}
				if err != nil {
					yield(llm.Chunk{}, p.pauseError(err))
					return
				}
				pauses++
				if n := len(cont); n > 0 && cont[n-1].OfText != nil && more[0].OfText != nil {
					// One text, cut by the pause: one block.
					cont[n-1].OfText.Text += more[0].OfText.Text
					more = more[1:]
				}
				cont = append(cont, more...)
				spent = spent.Add(usage)
				grace.Stop()
				stream.Close()
				stopStream()
				next, cancel := context.WithCancel(ctx)
				defer cancel() // one for each pause, at most maxPauses
				stopStream = cancel
				stream, _, err = p.open(next, req, cont, opts)
				if err != nil {
					yield(llm.Chunk{}, err)
					return
				}
				sent, usage, heldBytes = content{}, llm.Usage{}, 0
				grace = apierr.NewGrace(afterStop, cancel)
				stopped, moreAfterStop, done, rawStop, stop = false, false, false, "", ""
				continue
			}
			break
		}
		usage = spent.Add(usage)
		if rawStop == "" {
			// The API always says why a message ended. vLLM's
			// /v1/messages sends a null stop_reason, or no message_delta
			// at all, when the engine aborted the generation (its
			// finish_reason "abort" has no Anthropic word): what came
			// is then not the whole reply, and read as one it would be a
			// silently short turn.
			yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrServer,
				Err: errors.New("the server ended the message without a stop_reason (as vLLM does when it aborted the generation); what came is not the whole reply")})
			return
		}
		if e := apierr.FailedFinish(rawStop); e != nil {
			// A proxy passing an OpenAI-compatible server's finish
			// reason through: the server gave up part way.
			e.Provider = p.Name()
			yield(llm.Chunk{}, e)
			return
		}
		p.checkStop(ctx, req.Model, rawStop)
		if cut != nil && !llm.Incomplete(stop) {
			yield(llm.Chunk{}, cut)
			return
		}
		if mode := thinking.Learned(llm.Incomplete(stop)); mode != thinking.Mode() && !p.ownAPI {
			p.learnThink(ctx, req.Model, mode)
		}
		if out := textCalls.Feed(thinking.Flush(llm.Incomplete(stop))); out != "" && !yield(llm.Chunk{Text: out}, nil) {
			return
		}
		if stop == llm.StopEnd && !answered && thinking.Unclosed() && !thinking.Passed() && strings.TrimSpace(reasoning.String()) == "" {
			yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrMalformed, Err: think.UnclosedError(req.Model)})
			return
		}
		outcome, held, inText, form, why := textCalls.Finish(llm.Incomplete(stop))
		switch {
		case outcome == textcall.Garbled:
			yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrBadRequest, Err: textcall.GarbledError(req.Model, form, why)})
			return
		case outcome == textcall.Calls && answered:
			// Calls in both places: the server parsed some, so the
			// text is not a call it missed; it stays the text it was.
		case outcome == textcall.Calls:
			held = ""
			if !p.textCalls.Set(req.Model, true, nil) {
				p.log.LogAttrs(ctx, slog.LevelWarn, textcall.AdaptedMessage(form), slog.String("provider", p.Name()), slog.String("model", req.Model))
			}
			for i, c := range inText {
				id := fmt.Sprintf("toolu_text_%d_%s", i, c.Name)
				answered = true
				if !yield(llm.Chunk{ToolCall: &llm.ToolCall{ID: id, Name: c.Name, Args: c.Args}}, nil) {
					return
				}
			}
			if stop == llm.StopEnd {
				stop = llm.StopToolUse
			}
		}
		if stop == llm.StopToolUse && !answered {
			// The API says tool_use only of a message with a tool_use
			// block: with none sent, a compatible server's or proxy's
			// calls were lost on the way (a tool-call parser that failed
			// part way, deltas dropped), and what came is the text before
			// them, not the answer. Another sample may come whole.
			yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrMalformed,
				Err: fmt.Errorf("the server ended the message with stop_reason %q but sent no tool call: the call was lost (a compatible server's tool-call parser failed on the model's output, or a proxy dropped it); what came is not the whole reply", apierr.Detail(rawStop))})
			return
		}
		if held != "" && !yield(llm.Chunk{Text: held}, nil) {
			return
		}
		if stop == llm.StopEnd && !answered && !thinking.Passed() && strings.TrimSpace(reasoning.String()) != "" {
			// Everything came as reasoning and nothing as the answer: a
			// compatible server's reasoning parser that found no end of
			// reasoning (vLLM's deepseek_r1 on Qwen3 with thinking off,
			// behind its /v1/messages) files the whole answer in
			// thinking blocks, as the OpenAI provider finds it in
			// reasoning_content. An empty reply would be no answer at
			// all; this text is what the model said. Anthropic's own API
			// is not read so: there, thinking is never the answer.
			if !yield(llm.Chunk{Text: strings.TrimSpace(reasoning.String())}, nil) {
				return
			}
		}
		// Every call sends a prompt: counts with no input at all were
		// never filled in (a gateway's relay that sends zeros), and are
		// unknown as counts never sent are, not a free call.
		usage.Unreported = !counted || usage.InputTokens+usage.CacheReadTokens+usage.CacheWriteTokens == 0
		usage = apierr.Counts(usage)
		if counted && !p.ownAPI {
			p.checkCacheCounts(ctx, req.Model, usage)
		}
		switch {
		case stop != llm.StopRefusal:
			detail = ""
		case detail == "" && !strings.EqualFold(rawStop, string(sdk.StopReasonRefusal)):
			// An OpenAI-compatible server's content_filter passed through:
			// a filter withheld the reply, which "the model declined"
			// alone does not say.
			detail = fmt.Sprintf("stop_reason %s: a content filter withheld the rest of the reply", apierr.Detail(rawStop))
		}
		yield(llm.Chunk{Usage: &usage, StopReason: stop, StopDetail: detail}, nil)
	}
}

// tooMuchHeld is the error for a message that sent more than
// apierr.MaxWholeReply of what a reply holds until its end rather than
// passes on (tool inputs, thinking): a broken or hostile server's, which
// Parley does not hold. Its text is bounded by its reader, which stops
// reading; this would have grown without end until the call's deadline.
func (p *Provider) tooMuchHeld() *llm.Error {
	e := apierr.TooLarge(fmt.Sprintf("more than %d MB of tool input and thinking in one message", apierr.MaxWholeReply>>20))
	e.Provider = p.Name()
	return e
}

// unknownText is the error for text in a block or delta (what) of a type
// the API does not send text in, typ: neither the answer nor known not to
// be, it is not passed over, which would lose it if it were.
func (p *Provider) unknownText(what, typ, text string) *llm.Error {
	return &llm.Error{Provider: p.Name(), Kind: llm.ErrMalformed, Tries: apierr.MalformedTries,
		Err: fmt.Errorf("the server sent text in a %s %q, which the API does not send text in: %q: whether it is the answer is unknown; "+
			"if this repeats, report it to whoever runs the server or use another", what, apierr.Detail(typ), apierr.Detail(text))}
}

// wrongType is the error for an event's field that came as raw, of
// another JSON type than a string (see apierr.WrongType).
func (p *Provider) wrongType(event, field, raw string) *llm.Error {
	e := apierr.WrongType(event+" event", field, raw, "a string")
	e.Provider = p.Name()
	return e
}

// stopDetail says what a refusal's stop_details say: its policy category
// and its explanation, either of which may be null, cleaned and bounded.
func stopDetail(d sdk.RefusalStopDetails) string {
	var parts []string
	if c := apierr.Detail(string(d.Category)); c != "" {
		parts = append(parts, "category "+c)
	}
	if e := apierr.Detail(d.Explanation); e != "" {
		parts = append(parts, e)
	}
	return strings.Join(parts, ": ")
}

// learnThink remembers how model's text carries reasoning, and says so
// when it is news (see think.Change).
func (p *Provider) learnThink(ctx context.Context, model string, mode think.Mode) {
	old := p.thinks.Set(model, mode, nil)
	if level, msg, ok := think.Change(old, mode); ok {
		p.log.LogAttrs(ctx, level, msg, slog.String("provider", p.Name()), slog.String("model", model))
	}
}

// checkCacheCounts says, once per model, when a compatible server's
// counts do not tell which meaning its input_tokens has. The API's
// input_tokens leaves out the tokens read from and written to the cache;
// some compatible servers (converting an OpenAI-compatible engine's
// prompt_tokens, which holds the cached ones) count them in it too, and
// read the API's way they would be counted twice, in the usage and in the
// cost. Counts with input_tokens below the cached tokens have the API's
// meaning (the other would have input_tokens hold them); counts with
// input_tokens at or above them fit both, since a new message may well
// be longer than the cached prefix. Parley keeps the API's meaning,
// which the server says it speaks, rather than guess, and says so.
func (p *Provider) checkCacheCounts(ctx context.Context, model string, u llm.Usage) {
	cached := u.CacheReadTokens + u.CacheWriteTokens
	switch {
	case cached == 0:
		return
	case u.InputTokens < cached:
		p.cacheCounts.Set(model, cacheApart, nil)
		return
	}
	if p.cacheCounts.Get(model) != cacheUnknown || p.cacheCounts.Set(model, cacheAmbiguous, nil) != cacheUnknown {
		return
	}
	p.log.LogAttrs(ctx, slog.LevelWarn, "the server's input_tokens is not below its cached tokens: they are read as the Anthropic API defines them, input_tokens without the cache reads and writes; "+
		"if this server counts the cached tokens in input_tokens too, as some compatible servers do, they are counted twice in the usage and the cost",
		slog.String("provider", p.Name()), slog.String("model", model), slog.Int("input_tokens", u.InputTokens),
		slog.Int("cache_read_input_tokens", u.CacheReadTokens), slog.Int("cache_creation_input_tokens", u.CacheWriteTokens))
}

// afterStop is how long a stream may go on, silent, after the
// message_delta that gives its stop_reason, before its message is taken
// as over: message_stop comes at once after it, and a proxy that holds
// the body open without it would otherwise have the call wait for its
// deadline and fail as a timeout, its reply lost.
const afterStop = 2 * time.Second

// ownAPI reports whether baseURL is Anthropic's own API.
func ownAPI(baseURL string) bool {
	u, err := url.Parse(baseURL)
	return err == nil && strings.EqualFold(u.Hostname(), "api.anthropic.com")
}

type toolBuf struct {
	id, name string
	start    []byte // the input sent whole in content_block_start, if any
	args     strings.Builder
}

// complete returns the assembled arguments, which must be a JSON object.
func (tb *toolBuf) complete() (json.RawMessage, error) {
	args := tb.args.String()
	if strings.TrimSpace(args) == "" {
		args = string(tb.start)
	}
	return apierr.ToolArgs(tb.name, tb.id, args)
}

// named returns an error for a tool block without a tool's name, which
// no call can be made to; nil otherwise.
func (tb *toolBuf) named() error {
	if strings.TrimSpace(tb.name) == "" {
		return fmt.Errorf("the server sent a tool call (id %q) without the tool's name: no call can be made of it; its output is broken", tb.id)
	}
	return nil
}

// stopReason normalises the API's stop_reason; forced is set when a
// forced tool carries structured output. The OpenAI words ("length",
// "tool_calls", "content_filter") are what proxies that translate an
// OpenAI-compatible server's replies into this API pass through.
func stopReason(s string, forced bool) string {
	switch sdk.StopReason(strings.ToLower(s)) {
	case sdk.StopReasonToolUse, "tool_calls":
		if forced {
			return llm.StopEnd
		}
		return llm.StopToolUse
	case sdk.StopReasonMaxTokens, "length":
		return llm.StopMaxTokens
	case sdk.StopReasonModelContextWindowExceeded, "model_length":
		return llm.StopContextWindow
	case sdk.StopReasonRefusal, "content_filter":
		return llm.StopRefusal
	}
	return llm.StopEnd
}

// knownStops are the stop reasons stopReason reads as the API and the
// proxies in front of compatible servers mean them, and pause_turn, which
// the call continues.
var knownStops = []string{
	string(sdk.StopReasonEndTurn), string(sdk.StopReasonStopSequence), string(sdk.StopReasonToolUse),
	string(sdk.StopReasonMaxTokens), string(sdk.StopReasonModelContextWindowExceeded), string(sdk.StopReasonRefusal),
	stopPauseTurn, "stop", "tool_calls", "length", "model_length", "content_filter",
}

// checkStop says, once per model and reason, when a reply ended with a
// stop reason Parley does not know (a newer API's, a compatible server's
// own word): it is read as the end of the reply, as the API's end_turn,
// and the user is told rather than have a new meaning pass unseen.
func (p *Provider) checkStop(ctx context.Context, model, raw string) {
	r := strings.ToLower(raw)
	if slices.Contains(knownStops, r) {
		return
	}
	// The reason is the server's text: cleaned and cut before it is kept
	// or logged.
	said := apierr.Detail(raw)
	msg := p.unknownStops.UnknownReason(model+"\x00"+strings.ToLower(said), "stop_reason", said, "end_turn")
	if msg == "" {
		return
	}
	p.log.LogAttrs(ctx, slog.LevelWarn, msg, slog.String("provider", p.Name()), slog.String("model", model))
}

// mapErr classifies an error from the SDK.
func (p *Provider) mapErr(ctx context.Context, model string, err error) *llm.Error {
	if e := p.errs.Classified(ctx, err); e != nil {
		return e
	}
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		detail := apiErr.Message
		if detail == "" && apiErr.Response != nil && apiErr.Response.Body != nil {
			// Not the API's JSON: a proxy's page or text.
			body, _ := io.ReadAll(apiErr.Response.Body)
			detail = apierr.BodyDetail(body)
		}
		if apiErr.StatusCode >= 400 {
			var h http.Header
			if apiErr.Response != nil {
				h = apiErr.Response.Header
			}
			return p.errs.HTTP(apiErr.StatusCode, h, model, detail, err)
		}
		// An error event inside a 200 stream: classify by its type.
		// The SDK's text quotes the event raw; the message says it cleaned.
		kind := kindForType(string(apiErr.Type()))
		said := apierr.Detail(detail)
		if said == "" {
			said = apierr.Unexplained(string(apiErr.Type()), "")
		}
		msg := "error event in stream: " + said
		if kind == llm.ErrBadRequest && apierr.ContextExceeded(detail) {
			msg += "\n" + apierr.ContextHint(model)
		}
		return &llm.Error{Provider: p.Name(), Kind: kind, Err: apierr.Hide(msg, err)}
	}
	return p.errs.Transport(ctx, err)
}

// kindForType classifies the API's error.type, for errors that arrive as
// events after the 200 status was sent.
func kindForType(t string) llm.ErrorKind {
	switch t {
	case "rate_limit_error":
		return llm.ErrRateLimited
	case "overloaded_error":
		return llm.ErrOverloaded
	case "timeout_error":
		return llm.ErrTimeout
	case "authentication_error", "permission_error":
		return llm.ErrAuth
	case "invalid_request_error", "not_found_error", "request_too_large":
		return llm.ErrBadRequest
	}
	return llm.ErrServer
}

// Package openai is the llm.Provider for OpenAI's Chat Completions API and the
// servers that copy it (Ollama, vLLM, llama.cpp, LM Studio), on the official
// SDK (openai-go/v3).
//
// It streams replies with stream_options.include_usage, assembles tool calls
// from their deltas, asks for structured output with response_format
// json_schema (strict), and reports cached prompt tokens. The SDK's own
// retries are off: the runner owns retries. The one exception is a server
// that refuses a field it does not know (stream_options,
// max_completion_tokens): the call is sent again in a shape it accepts,
// which is remembered (see shape.go); so is a schema that OpenAI refuses
// in strict mode, sent again without strict (see strictRefused).
//
// Token accounting follows Parley's convention (the Anthropic one):
// llm.Usage.InputTokens excludes cached tokens, which the API counts inside
// prompt_tokens; they are reported as CacheReadTokens.
package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/respjson"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/internal/apierr"
	"github.com/parleyhq/parley/internal/llm/internal/permodel"
	"github.com/parleyhq/parley/internal/llm/internal/saidonce"
	"github.com/parleyhq/parley/internal/llm/internal/textcall"
	"github.com/parleyhq/parley/internal/llm/internal/think"
)

// DefaultBaseURL is the API's address when Config.BaseURL is empty.
const DefaultBaseURL = "https://api.openai.com/v1"

// TagHeader carries llm.Request.Tag. Servers ignore unknown headers; the fake
// server scripts replies by it.
const TagHeader = "X-Parley-Turn"

// Config configures a Provider.
type Config struct {
	// Name is the provider's name as shown and selected ("openai", "ollama",
	// "vllm"). Default "openai".
	Name string
	// APIKey is sent as a Bearer token. Optional: local servers need none.
	APIKey string
	// BaseURL is the API root including /v1 (OPENAI_BASE_URL). Default
	// DefaultBaseURL. A query in it is sent with every call: Azure
	// OpenAI's deployment URL carries its API version so
	// (https://NAME.openai.azure.com/openai/deployments/DEPLOYMENT?api-version=2024-10-21).
	// The key goes to an Azure endpoint (see IsAzure) in its api-key
	// header rather than as a Bearer token.
	BaseURL string
	// HTTPClient makes the requests. Default: a client without a timeout, since
	// streams run long (bound calls with the context instead), that does
	// not follow a redirect to another server (see apierr.CheckRedirect).
	HTTPClient *http.Client
	// LegacyMaxTokens sends the limit as max_tokens instead of
	// max_completion_tokens, for servers that only know the old field.
	LegacyMaxTokens bool
	// BaseURLFrom says where BaseURL came from when its variable
	// (OPENAI_BASE_URL) did not set it, for the errors that ask to
	// correct the address (see apierr.Mapper.BaseURLFrom).
	BaseURLFrom string
	// KeyEnv names the variable the key came from, for error messages.
	// Default "OPENAI_API_KEY" when APIKey is set.
	KeyEnv string
	// Logger is told, once per model, how calls were changed to suit the
	// server (a field it refused, reasoning dropped from the text), so
	// that a user sees why. Default slog.Default().
	Logger *slog.Logger
}

// ConfigFromEnv reads OPENAI_API_KEY and OPENAI_BASE_URL through getenv.
func ConfigFromEnv(getenv func(string) string) Config {
	return Config{Name: "openai", APIKey: getenv("OPENAI_API_KEY"), BaseURL: getenv("OPENAI_BASE_URL")}
}

// OllamaConfig is the Config for an Ollama server. host is OLLAMA_HOST as
// Ollama reads it ("", "127.0.0.1:11434", "0.0.0.0", "http://gpu-box:11434").
func OllamaConfig(host string) Config {
	return Config{Name: "ollama", BaseURL: OllamaBaseURL(host), LegacyMaxTokens: true}
}

// baseURLEnv names the variable that sets the address of the provider
// called name.
func baseURLEnv(name string) string {
	if name == "ollama" {
		return "OLLAMA_HOST"
	}
	return "OPENAI_BASE_URL"
}

// OllamaBaseURL turns OLLAMA_HOST into the base URL of Ollama's
// OpenAI-compatible API.
func OllamaBaseURL(host string) string {
	host = strings.TrimSpace(host)
	if host == "" {
		host = "127.0.0.1"
	}
	scheme := "http"
	if s, rest, ok := strings.Cut(host, "://"); ok {
		scheme, host = s, rest
	}
	host = strings.TrimRight(host, "/")
	h, port, err := net.SplitHostPort(host)
	if err != nil {
		h, port = strings.Trim(host, "[]"), "11434"
	}
	// 0.0.0.0 is what the server binds to; a client must dial something real.
	if h == "0.0.0.0" || h == "" || h == "::" {
		h = "127.0.0.1"
	}
	return (&url.URL{Scheme: scheme, Host: net.JoinHostPort(h, port), Path: "/v1"}).String()
}

// afterFinish is how long a stream may go on, silent, after its
// finish_reason before its reply is taken as over: servers send the usage
// chunk and "data: [DONE]" at once after the finish chunk, and a proxy
// that holds the body open after them would otherwise have the call wait
// for its deadline and fail as a timeout, its reply lost. Any chunk that
// comes starts the wait again, so that a server that puts a finish_reason
// on every chunk is not cut short.
const afterFinish = 2 * time.Second

// Provider streams Chat Completions calls. It is safe for concurrent use.
type Provider struct {
	chat sdk.ChatCompletionService
	cfg  Config
	errs apierr.Mapper
	// shapes remembers the fields the server rejected (see shape.go).
	shapes *permodel.Map[shape]
	// thinks remembers how each model's replies carry reasoning in their
	// content (see package think).
	thinks *permodel.Map[think.Mode]
	// textCalls remembers the models whose tool calls came as text and
	// were read, so that it is said once per model.
	textCalls *permodel.Map[bool]
	// laxSchemas remembers the schemas, per model, that the server
	// refused in strict mode (see strictRefused), keyed by laxKey.
	laxSchemas *permodel.Map[bool]
	// unknownFinishes remembers, keyed "model\x00reason", each
	// finish_reason not known to Parley that a model's replies ended
	// with, so that each is said once; a bounded number of them, for a
	// hostile server may send a new one with every reply.
	unknownFinishes saidonce.Set
	// lateFailures remembers the models whose server failed after a
	// reply was complete, so that it is said at Warn once per model (and
	// at Debug after), not with every reply of a server that always
	// does.
	lateFailures *permodel.Map[bool]
	log          *slog.Logger
}

// New returns a Provider for cfg.
func New(cfg Config) (*Provider, error) {
	if cfg.Name == "" {
		cfg.Name = "openai"
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	u, err := url.ParseRequestURI(strings.TrimSpace(cfg.BaseURL))
	if err != nil {
		return nil, fmt.Errorf("%s: base URL %q: %w", cfg.Name, cfg.BaseURL, err)
	}
	// "localhost:8000/v1" parses, with "localhost" as its scheme: every
	// call then failed, retried, with "unsupported protocol scheme".
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s: base URL %q is not an http:// or https:// address: correct %s, for example http://localhost:8000/v1", cfg.Name, cfg.BaseURL, baseURLEnv(cfg.Name))
	}
	// The query goes with every call, and the path before it is where
	// calls go; the SDK would otherwise put their paths inside the query.
	query := u.Query()
	azure := IsAzure(u)
	u.RawQuery, u.ForceQuery, u.Fragment = "", false, ""
	cfg.BaseURL = strings.TrimRight(u.String(), "/")
	if cfg.KeyEnv == "" && cfg.Name == "openai" {
		cfg.KeyEnv = "OPENAI_API_KEY"
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{CheckRedirect: apierr.CheckRedirect}
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL + "/"),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
		option.WithMiddleware(normalize),
	}
	for k, vs := range query {
		for _, v := range vs {
			opts = append(opts, option.WithQueryAdd(k, v))
		}
	}
	switch {
	case cfg.APIKey != "" && azure:
		// Azure takes its keys in this header; a Bearer token there is
		// an Entra ID token, which a key is not.
		opts = append(opts, option.WithHeader("api-key", cfg.APIKey))
	case cfg.APIKey != "":
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	// The service is built directly rather than through sdk.NewClient, which
	// would mix in OPENAI_* variables (a key, an organization) that belong to
	// OpenAI, not to whatever local server BaseURL names.
	return &Provider{
		chat:         sdk.NewChatCompletionService(opts...),
		cfg:          cfg,
		errs:         apierr.Mapper{Provider: cfg.Name, BaseURL: cfg.BaseURL, BaseURLEnv: baseURLEnv(cfg.Name), BaseURLFrom: cfg.BaseURLFrom, KeyEnv: cfg.KeyEnv, NoKey: cfg.APIKey == "", Public: openAIsOwn(cfg.BaseURL)},
		shapes:       permodel.New(shape{legacyMax: cfg.LegacyMaxTokens}),
		thinks:       permodel.New(think.Unknown),
		textCalls:    permodel.New(false),
		laxSchemas:   permodel.New(false),
		lateFailures: permodel.New(false),
		log:          log,
	}, nil
}

// IsAzure reports whether u is an Azure OpenAI endpoint, which takes its
// key in an api-key header: a resource's own host (NAME.openai.azure.com,
// NAME.cognitiveservices.azure.com, NAME.services.ai.azure.com), or a
// gateway (Azure API Management) that serves Azure's deployment paths.
func IsAzure(u *url.URL) bool {
	host := strings.ToLower(u.Hostname())
	for _, suffix := range []string{".openai.azure.com", ".cognitiveservices.azure.com", ".services.ai.azure.com"} {
		if strings.HasSuffix(host, suffix) {
			return true
		}
	}
	return strings.Contains(u.Path, "/openai/deployments/")
}

// Name returns Config.Name.
func (p *Provider) Name() string { return p.cfg.Name }

// Caps reports tools and structured output. Caching is automatic on the
// server's side, so there is nothing explicit to ask for.
func (p *Provider) Caps() llm.Caps { return llm.Caps{Tools: true, JSONSchema: true} }

// Stream sends req and yields the reply as it arrives.
func (p *Provider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		end := &streamEnd{}
		defer end.close()
		// The stream's own context, to end a stream whose reply is over
		// but whose body is held open (see afterFinish).
		streamCtx, stopStream := context.WithCancel(ctx)
		defer stopStream()
		stream, err := p.open(context.WithValue(streamCtx, streamEndKey{}, end), req)
		if err != nil {
			yield(llm.Chunk{}, err)
			return
		}
		// Closing releases the connection when the caller breaks early.
		defer stream.Close()
		// The stream is ended afterFinish after its finish_reason.
		grace := apierr.NewGrace(afterFinish, stopStream)
		defer grace.Stop()

		var (
			// Servers that ignore stream_options.include_usage send no
			// counts: they are then unknown, not zero.
			usage    = llm.Usage{Unreported: true}
			finish   string
			finished bool
			// moreAfterFinish is set when content came after a chunk
			// with a finish_reason.
			moreAfterFinish bool
			// heldBytes counts the bytes of tool calls and refusal
			// held until the reply ends.
			heldBytes int
			calls     toolCalls
			refusal   strings.Builder
			thinking  = think.New(p.thinks.Get(req.Model))
			// Tool calls the server passed on as text (see package
			// textcall) are held back from the answer. A lone JSON object
			// is the answer when one was asked for.
			textCalls = textcall.New(req.Tools, req.Schema == nil)
			// The reasoning deltas, kept (up to think.MaxHeld) for a reply that
			// has nothing else (see below).
			reasoning strings.Builder
			// choice is the index of the choice that is the reply: the
			// lowest in the first chunk with any, -1 until then. It is 0
			// from every server that numbers it as the API does; some
			// number their only choice otherwise, and a reply read at
			// index 0 alone was then empty.
			choice int64 = -1
			// said is set once the reply's content or reasoning had any
			// text.
			said bool
			// messages reads the text of the messages streamed in place
			// of deltas (see otherDelta).
			messages messageText
		)
		// pass passes content on through the filters, and reports
		// whether to go on; a reply found to have passed reasoning on
		// as the answer fails.
		pass := func(content string) bool {
			text, late := thinking.Feed(content)
			if late {
				p.learnThink(ctx, req.Model, think.Orphan)
				yield(llm.Chunk{}, p.lateReasoning(req.Model))
				return false
			}
			text = textCalls.Feed(text)
			return text == "" || yield(llm.Chunk{Text: text}, nil)
		}
		for stream.Next() {
			chunk := stream.Current()
			// wasFinished: a finish_reason came in an earlier chunk.
			// carried: this chunk had some of the reply.
			wasFinished, carried := finished, false
			if chunk.JSON.Usage.Valid() {
				// Servers that send usage with every chunk (vLLM's
				// continuous_usage_stats) send running totals: the last wins.
				usage = usageOf(chunk.Usage)
			} else if g, ok := chunk.JSON.ExtraFields["x_groq"]; ok {
				// Groq, asked without stream_options (which it refused
				// for long), counts in x_groq.usage of the last chunk.
				var xg struct {
					Usage *sdk.CompletionUsage `json:"usage"`
				}
				if json.Unmarshal([]byte(g.Raw()), &xg) == nil && xg.Usage != nil && xg.Usage.JSON.CompletionTokens.Valid() {
					usage = usageOf(*xg.Usage)
				}
			}
			if f := badShape(chunk.JSON.Choices); f != "" {
				yield(llm.Chunk{}, p.badChunk("choices", f))
				return
			}
			for _, ch := range chunk.Choices {
				if f := badShape(ch.JSON.Delta); f != "" {
					yield(llm.Chunk{}, p.badChunk("delta", f))
					return
				}
				if f := badShape(ch.Delta.JSON.ToolCalls); f != "" {
					yield(llm.Chunk{}, p.badChunk("tool_calls", f))
					return
				}
			}
			if choice < 0 && len(chunk.Choices) > 0 {
				choice = chunk.Choices[0].Index
				for _, ch := range chunk.Choices[1:] {
					choice = min(choice, ch.Index)
				}
			}
			for _, ch := range chunk.Choices {
				if ch.Index != choice {
					// n > 1 is never requested: a server that sends
					// more choices anyway sends others of the same
					// prompt, which are not part of this reply.
					continue
				}
				if u, ok := choiceUsage(ch.JSON.ExtraFields); ok && !chunk.JSON.Usage.Valid() {
					// Moonshot (Kimi) sends the counts inside the finish
					// chunk's choice rather than beside it.
					usage = usageOf(u)
				}
				if bad := apierr.NotString(ch.JSON.FinishReason.Raw()); bad != "" {
					yield(llm.Chunk{}, p.wrongType("finish_reason", bad, "a string"))
					return
				}
				// A delta ends the messages' text held (see messageText).
				held := ""
				if ch.JSON.Delta.Raw() == "" {
					if d, ok := otherDelta(ch.JSON.ExtraFields, &messages); ok {
						ch.Delta = d
					}
				} else {
					held = messages.end()
				}
				if ch.FinishReason != "" {
					held += messages.end()
				}
				// Reasoning deltas (reasoning_content, reasoning) are not
				// read, nor reasoning in the content (see package think): they
				// are the model's scratchpad, not its answer.
				r := reasoningText(ch.Delta.JSON.ExtraFields)
				if r != "" && reasoning.Len()+len(r) <= think.MaxHeld {
					reasoning.WriteString(r)
				}
				content, bad := contentText(ch.Delta.Content, ch.Delta.JSON.Content.Raw())
				if bad != "" {
					want := "a string"
					if bad[0] == '[' {
						want = "a list of parts, each an object whose text is a string"
					}
					yield(llm.Chunk{}, p.wrongType("content", bad, want))
					return
				}
				if bad := apierr.NotString(ch.Delta.JSON.Refusal.Raw()); bad != "" {
					yield(llm.Chunk{}, p.wrongType("refusal", bad, "a string"))
					return
				}
				for _, d := range ch.Delta.ToolCalls {
					if bad := apierr.NotString(d.Function.JSON.Name.Raw()); bad != "" {
						yield(llm.Chunk{}, p.wrongType("tool call's function.name", bad, "a string"))
						return
					}
				}
				if ch.JSON.Delta.Raw() == "" {
					content += held
				} else {
					content = held + content
				}
				said = said || content != "" || r != "" || messages.any
				carried = carried || content != "" || r != "" || ch.Delta.Refusal != "" || len(ch.Delta.ToolCalls) > 0
				moreAfterFinish = moreAfterFinish || wasFinished && carried
				if !pass(content) {
					return
				}
				refusal.WriteString(ch.Delta.Refusal)
				for _, d := range ch.Delta.ToolCalls {
					n := len(calls.bufs)
					calls.add(d.Index, d.ID, d.Function.Name, d.Function.Arguments)
					heldBytes += len(d.ID) + len(d.Function.Name) + len(d.Function.Arguments)
					if len(calls.bufs) > n {
						// A call held costs more than its bytes: empty
						// deltas at new indexes (a hostile server's)
						// each opened one.
						heldBytes += heldCall
					}
				}
				//lint:ignore SA1019 the deprecated field is what such servers send.
				heldBytes += len(ch.Delta.Refusal) + len(ch.Delta.FunctionCall.Name) + len(ch.Delta.FunctionCall.Arguments)
				if heldBytes > apierr.MaxWholeReply {
					// Tool calls and a refusal are held until the reply
					// ends, not passed on as text is (whose reader
					// bounds it): a broken or hostile server's would
					// grow without end until the call's deadline.
					e := apierr.TooLarge(fmt.Sprintf("more than %d MB of tool calls and refusal in one reply", apierr.MaxWholeReply>>20))
					e.Provider = p.Name()
					yield(llm.Chunk{}, e)
					return
				}
				//lint:ignore SA1019 the deprecated field is what such servers send.
				if fc := ch.Delta.FunctionCall; fc.Name != "" || fc.Arguments != "" {
					// The call in the deprecated function_call delta, one
					// per reply, as servers from before tool_calls (and
					// older Azure API versions) send it: it was dropped,
					// and the reply ended with a call it did not make.
					calls.add(legacyCall, "", fc.Name, fc.Arguments)
				}
				if ch.FinishReason != "" {
					// Proxies in front of Gemini or Vertex pass its own
					// upper-case reasons (MAX_TOKENS, SAFETY) through.
					finish, finished = strings.ToLower(ch.FinishReason), true
				}
			}
			// After the finish_reason only the counts and "data: [DONE]"
			// are due, at once, which a proxy that holds the body open
			// never sends: the stream is given afterFinish, without more
			// of the reply, to end by itself. (It is read to its end when
			// it does, so that the connection is kept for the next call.)
			// Chunks without any of the reply (counts sent again and
			// again) do not hold it open: they held the call to its
			// deadline, failed as a timeout and retried.
			grace.Event(finished, carried)
		}
		if err := stream.Err(); err != nil && !(grace.Over() && ctx.Err() == nil) {
			e := p.mapErr(ctx, req.Model, err)
			if !finished || moreAfterFinish || ctx.Err() != nil {
				yield(llm.Chunk{}, e)
				return
			}
			// The finish_reason came: the model stopped, and the chunk
			// that says so is the reply's last; after it only the
			// counts (stream_options.include_usage, which the API says
			// an interrupted stream may lack) and "data: [DONE]" are
			// due. An error event or a dropped connection there cuts
			// nothing of the reply; failing the call would have it
			// retried and paid for twice. Counts that did not come are
			// unknown (Usage.Unreported), not zero. A server that sent
			// content after a finish_reason (one on every chunk) is not
			// taken at its word.
			apierr.LateFailure(ctx, p.log, p.lateFailures, p.Name(), req.Model, "finish_reason", finish, e)
		}
		if !finished && !end.done.Load() {
			yield(llm.Chunk{}, p.errs.StreamCut())
			return
		}
		if !finished {
			// "data: [DONE]" without a finish_reason, which servers
			// that send null in every chunk end a whole reply with: what
			// comes after it says whether it was the end. The body is
			// given afterFinish to end, as after a finish_reason.
			t := time.AfterFunc(afterFinish, stopStream)
			more := end.moreAfterDone()
			t.Stop()
			if more {
				yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrMalformed, Tries: apierr.MalformedTries,
					Err: errors.New("the server sent data: [DONE] before the end of its reply (chunks of it came after, which a client stops reading at): what came before is not the whole reply; if this repeats, report it to whoever runs the server or use another")})
				return
			}
		}
		if !finished && !said && len(calls.bufs) == 0 && refusal.Len() == 0 {
			// "data: [DONE]" and nothing before it, not even a
			// finish_reason: what proxies (LiteLLM, one-api) send when the
			// server behind them failed. That is no reply, not an empty
			// one, which a model's would say it ended.
			yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrServer,
				Err: errors.New("the server ended the stream (data: [DONE]) without any reply, nor a finish_reason: the server behind it failed, or a proxy lost its reply")})
			return
		}
		if e := apierr.FailedFinish(finish); e != nil {
			// The server gave up part way (vLLM's abort, DeepSeek's
			// insufficient_system_resource, Mistral's error): what came
			// is not the whole reply.
			e.Provider = p.Name()
			yield(llm.Chunk{}, e)
			return
		}
		if held := messages.end(); held != "" && !pass(held) {
			return
		}
		p.checkFinish(ctx, req.Model, finish)
		stop := stopReason(finish)
		cut := llm.Incomplete(stop)
		if mode := thinking.Learned(cut); mode != thinking.Mode() {
			p.learnThink(ctx, req.Model, mode)
		}
		if text := textCalls.Feed(thinking.Flush(cut)); text != "" && !yield(llm.Chunk{Text: text}, nil) {
			return
		}
		if stop == llm.StopEnd && thinking.Unclosed() && !thinking.Passed() && len(calls.bufs) == 0 && refusal.Len() == 0 && strings.TrimSpace(reasoning.String()) == "" {
			yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrMalformed, Err: think.UnclosedError(req.Model)})
			return
		}
		outcome, text, inText, form, why := textCalls.Finish(cut)
		switch {
		case outcome == textcall.Garbled:
			yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrBadRequest, Err: textcall.GarbledError(req.Model, form, why)})
			return
		case outcome == textcall.Calls && len(calls.bufs) > 0:
			// Calls in both places: the server parsed some, so the
			// text is not a call it missed; it stays the text it was.
		case outcome == textcall.Calls:
			text = ""
			if !p.textCalls.Set(req.Model, true, nil) {
				p.log.LogAttrs(ctx, slog.LevelWarn, textcall.AdaptedMessage(form), slog.String("provider", p.Name()), slog.String("model", req.Model))
			}
			for i, c := range inText {
				// Read as if the server had sent them: named, in order,
				// with IDs unique within the reply.
				calls.add(int64(i), fmt.Sprintf("call_%d_%s", i, c.Name), c.Name, string(c.Args))
			}
		}
		if stop == llm.StopToolUse && len(calls.bufs) == 0 && refusal.Len() == 0 {
			// The servers say tool_calls only of a reply whose calls they
			// parsed (vLLM, Ollama, llama.cpp): with none sent, the calls
			// were lost on the way (a tool-call parser that failed part
			// way, a proxy that dropped their deltas), and what came is
			// the text before them, not the answer. Another sample may
			// come whole.
			yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrMalformed,
				Err: fmt.Errorf("the server ended the reply with finish_reason %q but sent no tool call: the call was lost (the server's tool-call parser failed on the model's output, or a proxy dropped it); what came is not the whole reply", apierr.Detail(finish))})
			return
		}
		if text != "" && !yield(llm.Chunk{Text: text}, nil) {
			return
		}
		if stop == llm.StopEnd && !thinking.Passed() && len(calls.bufs) == 0 && refusal.Len() == 0 && strings.TrimSpace(reasoning.String()) != "" {
			// Everything came as reasoning and nothing as the answer: a
			// reasoning parser that found no end of reasoning (vLLM's
			// deepseek_r1 parser on Qwen3 with thinking off, Nemotron
			// without enable_thinking) files the whole answer there. An
			// empty reply would be no answer at all; this text is what the
			// model said.
			if !yield(llm.Chunk{Text: strings.TrimSpace(reasoning.String())}, nil) {
				return
			}
		}
		ids := map[string]bool{}
		for i, tb := range calls.bufs {
			tc, err := tb.complete(i)
			if err != nil && llm.Incomplete(stop) {
				// The limit cut the call's arguments: the reply is
				// incomplete, which the stop reason says; the partial
				// call is not one.
				calls.bufs = calls.bufs[:i]
				break
			}
			if err != nil {
				yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrMalformed, Err: err})
				return
			}
			if ids[tc.ID] {
				// Some compatible layers number calls per reply, or give
				// every call one ID: the runner pairs each result with
				// its call by ID, so a second use would answer the first.
				tc.ID = fmt.Sprintf("%s_%d", tc.ID, i)
			}
			ids[tc.ID] = true
			if !yield(llm.Chunk{ToolCall: tc}, nil) {
				return
			}
		}
		if len(calls.bufs) > 0 && stop == llm.StopEnd {
			// Some compatible servers say "stop" after tool calls.
			stop = llm.StopToolUse
		}
		detail := ""
		if refusal.Len() > 0 {
			// The model declined; its reason is the reply, so that it is
			// seen rather than an empty answer.
			stop = llm.StopRefusal
			if !yield(llm.Chunk{Text: refusal.String()}, nil) {
				return
			}
		} else if stop == llm.StopRefusal {
			// Not the model's word but a filter's (OpenAI's and Azure's
			// content filter, Gemini's safety filters behind a proxy): the
			// reply was withheld, which "the model declined" alone does
			// not say.
			detail = fmt.Sprintf("finish_reason %s: a content filter withheld the rest of the reply", apierr.Detail(finish))
		}
		usage = apierr.Counts(usage)
		yield(llm.Chunk{Usage: &usage, StopReason: stop, StopDetail: detail}, nil)
	}
}

// open sends req in the shape the server last accepted for its model. When
// the server answers, before any output, that it does not accept one of the
// fields sent (see shape.go), the call is sent again without it (or with
// the other name of the token limit, or the schema asked for in the system
// prompt), once per field; when it names a lower limit on the reply than
// asked, once with that limit. The shape that was accepted is remembered
// for the next calls. Nothing else changes between the tries: not the
// model, not the conversation; other refusals are the caller's to see. The
// stream returned may still hold an error, which reading it reports.
func (p *Provider) open(ctx context.Context, req llm.Request) (*ssestream.Stream[sdk.ChatCompletionChunk], error) {
	var opts []option.RequestOption
	if req.Tag != "" {
		opts = append(opts, option.WithHeader(TagHeader, req.Tag))
	}
	sh := p.shapes.Get(req.Model)
	adapted := false
	// A limit lowered for this prompt's length is this call's alone; one
	// lowered to the model's own cap holds for its next calls.
	keepCap, learnedCap := true, sh.maxCap
	tried := map[string]bool{}
	// lax sends the schema without strict: the server refused it in
	// strict mode, for this model, before or in this call (relaxed is
	// then its reason). That is the schema's doing, not the server's
	// software's, so it is not part of the shape.
	schemaKey := laxKey(req)
	lax, relaxed := schemaKey != "" && p.laxSchemas.Get(schemaKey), ""
	for {
		callShape := sh
		callShape.noStrict = sh.noStrict || lax
		params, err := p.params(req, callShape)
		if err != nil {
			return nil, &llm.Error{Provider: p.Name(), Kind: llm.ErrBadRequest, Err: err}
		}
		stream := p.chat.NewStreaming(ctx, params, opts...)
		if why, refused := strictRefused(stream.Err(), params); refused && !lax {
			// Before the fields: OpenAI's words for it ("... is not
			// permitted") would read as response_format refused.
			_ = stream.Close()
			lax, relaxed = true, why
			continue
		}
		field := rejectedField(stream.Err(), sentFields(params))
		if field == fieldTools {
			// Not adapted: without its tools the agent would argue from
			// memory what it was asked to research, and nobody would know.
			err := stream.Err()
			_ = stream.Close()
			return nil, p.noTools(req.Model, err)
		}
		// The two names of the limit are one field: when the server
		// refuses both, the call fails rather than flip back.
		key := field
		if key == fieldMaxTokens {
			key = fieldMaxCompletionTokens
		}
		next, ok := sh.adapt(field)
		if !ok && !tried[fieldLimit] {
			if limit, perModel, found := outputLimit(stream.Err(), sentLimit(params)); found {
				next, ok, key = sh, true, fieldLimit
				next.maxCap, keepCap = limit, perModel
			}
		}
		if !ok || tried[key] {
			if schemaRefused(stream.Err(), params) {
				err := stream.Err()
				_ = stream.Close()
				return nil, p.noSchema(req.Model, err)
			}
			if adapted && stream.Err() == nil {
				if !keepCap {
					sh.maxCap = learnedCap
				}
				old := p.shapes.Set(req.Model, sh, serverFields(sh))
				p.logShape(ctx, req.Model, old, sh)
			}
			if relaxed != "" && stream.Err() == nil && !p.laxSchemas.Set(schemaKey, true, nil) {
				p.log.LogAttrs(ctx, slog.LevelWarn, "the server refused the schema in strict mode: it is sent without strict, so replies are held to it as far as the model can, not guaranteed; "+
					"to keep strict, give every object in the schema additionalProperties false and every property in required",
					slog.String("provider", p.Name()), slog.String("model", req.Model), slog.String("schema", req.Schema.Name), slog.String("reason", apierr.Detail(relaxed)))
			}
			return stream, nil
		}
		_ = stream.Close()
		tried[key], adapted, sh = true, true, next
	}
}

// learnThink remembers how model's replies carry reasoning, and says so
// when it is news (see think.Change).
func (p *Provider) learnThink(ctx context.Context, model string, mode think.Mode) {
	old := p.thinks.Set(model, mode, nil)
	if level, msg, ok := think.Change(old, mode); ok {
		p.log.LogAttrs(ctx, level, msg, slog.String("provider", p.Name()), slog.String("model", model))
	}
}

// schemaRefused reports whether err is a 400 or 422 that names the
// json_schema response_format params carries in words not read as a
// field refused (see rejectedField): llama.cpp before its json_schema
// support answers "response_format type must be one of "text" or
// "json_object", but got: json_schema".
func schemaRefused(err error, params sdk.ChatCompletionNewParams) bool {
	var apiErr *sdk.Error
	if params.ResponseFormat.OfJSONSchema == nil || !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest && apiErr.StatusCode != http.StatusUnprocessableEntity {
		return false
	}
	msg := strings.ToLower(apiErr.Message + " " + apiErr.RawJSON())
	if strings.HasPrefix(strings.ToLower(apiErr.Message), "invalid schema for") {
		// OpenAI's refusal of the schema itself (see strictRefused):
		// the server has the field; the schema is the caller's to fix.
		return false
	}
	return strings.Contains(msg, "response_format") || strings.Contains(msg, "json_schema")
}

// noSchema is the error for a server that refuses the json_schema
// response format in words that do not say the field is unknown: the call
// fails saying what to change, rather than quote the server alone.
func (p *Provider) noSchema(model string, err error) *llm.Error {
	e := p.mapErr(context.Background(), model, err)
	e.Kind = llm.ErrBadRequest
	e.Err = fmt.Errorf("%w\nthe server refused the json_schema response_format that model %q is asked for structured replies with: "+
		"update the server to a version with JSON-schema structured output (llama.cpp with json_schema support, Ollama 0.5 or later), "+
		"or give this role a model on a server that has it (--model-for ROLE=MODEL)", e.Err, model)
	return e
}

// noTools is the error for a model or server that refuses tool calling,
// which the turn asked for: a bad request, with what to change.
func (p *Provider) noTools(model string, err error) *llm.Error {
	e := p.mapErr(context.Background(), model, err)
	e.Kind = llm.ErrBadRequest
	e.Err = fmt.Errorf("%w\nmodel %q cannot call tools on this server, and this agent researches with Parley's tools: "+
		"give its role a model with tool calling (--model-for ROLE=MODEL; Ollama: a model tagged \"tools\", such as llama3.1 or qwen2.5), "+
		"or start the server with it (vLLM: --enable-auto-tool-choice --tool-call-parser NAME; llama.cpp: --jinja)", e.Err, model)
	return e
}

// lateReasoning is the error for a reply whose reasoning ended with an
// orphan "</think>" after it had been passed on as the answer (see
// think.LateError). It is retryable: the call tried again yields only the
// answer.
func (p *Provider) lateReasoning(model string) *llm.Error {
	return &llm.Error{Provider: p.Name(), Kind: llm.ErrMalformed, Err: think.LateError(model)}
}

// badShape returns a field's JSON when it came of another type than the
// API's (a choices object rather than a list, a delta that is a string),
// which the SDK reads as absent; "" otherwise, and for an empty value of
// another type ({}, "", []), which carries nothing to lose.
func badShape(f respjson.Field) string {
	switch raw := strings.TrimSpace(f.Raw()); {
	case f.Valid(), raw == "", raw == respjson.Null, raw == "{}", raw == `""`, raw == "[]":
		return ""
	default:
		return raw
	}
}

// badChunk is the error for a chunk whose field came as raw, of another
// type than the API's. Read as absent, the reply's text in it was lost
// and the rest stood as the whole reply (an empty one when every chunk was
// so). It is asked once more, as invalid JSON is: the server wrote it so.
func (p *Provider) badChunk(field, raw string) *llm.Error {
	return &llm.Error{Provider: p.Name(), Kind: llm.ErrMalformed, Tries: apierr.MalformedTries,
		Err: fmt.Errorf("the server sent a stream chunk whose %q is not of the API's type: %s: its output is broken; if this repeats, report it to whoever runs the server or use another", field, apierr.Detail(raw))}
}

// otherDelta reads a choice of a stream chunk that has no delta but the
// reply in another field: a "message", as in a reply sent whole (a
// server that streams chat.completion objects), or the legacy Completions
// API's "text". Passed over as a choice with no delta, the text in it was
// lost and the reply stood as empty. A message may hold the whole text so
// far rather than what is new: m reads which (see messageText), and the
// delta's content is what is new of it to pass on now.
func otherDelta(extra map[string]respjson.Field, m *messageText) (sdk.ChatCompletionChunkChoiceDelta, bool) {
	var d sdk.ChatCompletionChunkChoiceDelta
	if f, ok := extra["message"]; ok && strings.HasPrefix(strings.TrimSpace(f.Raw()), "{") && json.Unmarshal([]byte(f.Raw()), &d) == nil {
		if apierr.NotString(d.JSON.Content.Raw()) == "" {
			d.Content = m.add(d.Content)
		}
		return d, true
	}
	var text string
	if f, ok := extra["text"]; ok && json.Unmarshal([]byte(f.Raw()), &text) == nil {
		d.Content = text
		return d, true
	}
	return d, false
}

// wrongType is the error for a delta's field that came as raw, of another
// JSON type than want (see apierr.WrongType).
func (p *Provider) wrongType(field, raw, want string) *llm.Error {
	e := apierr.WrongType("stream chunk", field, raw, want)
	e.Provider = p.Name()
	return e
}

// reasoningText is the reasoning a delta carries, in the field servers use
// for it: reasoning_content (DeepSeek, vLLM, llama.cpp) or reasoning
// (Ollama, OpenRouter, newer vLLM). Servers that send both send the same
// text twice, so the first is taken.
func reasoningText(extra map[string]respjson.Field) string {
	for _, k := range []string{"reasoning_content", "reasoning"} {
		f, ok := extra[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal([]byte(f.Raw()), &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

// usageOf converts the API's counts to Parley's: prompt_tokens counts the
// cached prefix, which llm.Usage counts apart. Servers that do not fill
// prompt_tokens_details name the cached tokens in their own fields:
// DeepSeek's prompt_cache_hit_tokens (prompt_tokens being the hits and
// the misses), Moonshot's cached_tokens. Read as input, a cached prefix
// would be priced at up to ten times what it cost. So the output tokens
// are counted whole when a server leaves the reasoning out of them.
func usageOf(u sdk.CompletionUsage) llm.Usage {
	cached := int(u.PromptTokensDetails.CachedTokens)
	if cached == 0 {
		for _, k := range []string{"prompt_cache_hit_tokens", "cached_tokens"} {
			if n, ok := extraCount(u.JSON.ExtraFields, k); ok && n > 0 {
				cached = n
				break
			}
		}
	}
	written := int(u.PromptTokensDetails.CacheWriteTokens)
	output := int(u.CompletionTokens)
	if r := int(u.CompletionTokensDetails.ReasoningTokens); r > 0 && int(u.PromptTokens)+output+r == int(u.TotalTokens) {
		// completion_tokens counts the reasoning tokens in OpenAI's
		// API; xAI's, and layers in front of Gemini, leave them out of
		// it, though their total_tokens, and the bill, count them.
		output += r
	}
	input := int(u.PromptTokens) - cached - written
	if input < 0 {
		// More cached tokens than prompt tokens cannot be OpenAI's
		// counts, in which prompt_tokens holds the cached ones: the
		// server (a proxy in front of Anthropic's API, which counts the
		// cache apart) sent the uncached input alone. Read so, the
		// uncached input is not lost to a clamp at 0.
		input = int(u.PromptTokens)
	}
	out := llm.Usage{
		InputTokens:      input,
		OutputTokens:     output,
		CacheReadTokens:  cached,
		CacheWriteTokens: written,
		// Every call sends a prompt: a count of no prompt tokens was
		// never filled in (LocalAI's usage for a request with tools,
		// one-api's for every stream it relays, all zeros). The counts
		// are then unknown, as when none are sent, not a free call.
		Unreported: input+cached+written == 0,
	}
	if usd, ok := reportedCost(u.JSON.ExtraFields); ok {
		out.ServerCostUSD, out.ServerCost = usd, llm.ServerCostReported
	}
	return out
}

// reportedCost reads what a server said a call cost, in USD: OpenRouter's
// usage.cost (its credits are dollars). With the user's own provider key
// (is_byok) that is only OpenRouter's fee, the provider's charge being
// cost_details.upstream_inference_cost: the cost is both, and unknown
// without the second. A value that is not a finite amount of 0 or more
// is not a cost.
func reportedCost(extra map[string]respjson.Field) (float64, bool) {
	amount := func(raw string) (float64, bool) {
		var v *float64 // null is no amount
		if json.Unmarshal([]byte(raw), &v) != nil || v == nil || *v < 0 || math.IsInf(*v, 0) {
			return 0, false
		}
		return *v, true
	}
	f, ok := extra["cost"]
	if !ok {
		return 0, false
	}
	usd, ok := amount(f.Raw())
	if !ok {
		return 0, false
	}
	var byok bool
	if f, ok := extra["is_byok"]; ok && json.Unmarshal([]byte(f.Raw()), &byok) == nil && byok {
		var details struct {
			Upstream json.RawMessage `json:"upstream_inference_cost"`
		}
		f, ok := extra["cost_details"]
		if !ok || json.Unmarshal([]byte(f.Raw()), &details) != nil {
			return 0, false
		}
		upstream, ok := amount(string(details.Upstream))
		if !ok {
			return 0, false
		}
		usd += upstream
	}
	return usd, true
}

// extraCount reads a count a server sent in a field the SDK does not
// know.
func extraCount(extra map[string]respjson.Field, key string) (int, bool) {
	f, ok := extra[key]
	if !ok {
		return 0, false
	}
	var n int
	if json.Unmarshal([]byte(f.Raw()), &n) != nil {
		return 0, false
	}
	return n, true
}

// choiceUsage reads the counts a server sent inside a choice (Moonshot's
// "usage" in the finish chunk's choice), which the SDK does not know.
func choiceUsage(extra map[string]respjson.Field) (sdk.CompletionUsage, bool) {
	f, ok := extra["usage"]
	if !ok {
		return sdk.CompletionUsage{}, false
	}
	var u sdk.CompletionUsage
	if json.Unmarshal([]byte(f.Raw()), &u) != nil || !u.JSON.PromptTokens.Valid() && !u.JSON.CompletionTokens.Valid() {
		return sdk.CompletionUsage{}, false
	}
	return u, true
}

// contentText is the answer's text in a content delta. Mistral's reasoning
// models (Magistral) send content as a list of parts, the reasoning in
// "thinking" parts and the answer in "text" ones; the SDK, which expects a
// string, hands the list over as its raw JSON. raw is the field as sent.
// bad is raw when content is of another type (an object, a number), or a
// list whose parts are not objects or whose text is not a string: the SDK
// hands those over as their raw JSON too, which is not the model's words.
func contentText(content, raw string) (text, bad string) {
	t := apierr.NotString(raw)
	switch {
	case t == "":
		return content, ""
	case t[0] != '[':
		return "", t
	}
	var parts []map[string]json.RawMessage
	if json.Unmarshal([]byte(t), &parts) != nil {
		return "", t
	}
	var b strings.Builder
	for _, p := range parts {
		var typ, s string
		if p == nil || json.Unmarshal(p["type"], &typ) != nil {
			return "", t
		}
		if typ != "text" {
			continue
		}
		if apierr.NotString(string(p["text"])) != "" || len(p["text"]) > 0 && json.Unmarshal(p["text"], &s) != nil {
			return "", t
		}
		b.WriteString(s)
	}
	return b.String(), ""
}

// toolCalls assembles tool calls from their deltas, in the order they began.
// A call is keyed by its index, except that a new ID at an index already
// taken starts a new call: some compatible layers send every parallel call
// whole at index 0. Some send them so without IDs: there, a function name
// with arguments, after a call whose arguments are whole, starts one (a
// server that repeats the name in every delta of a call sends it before
// the arguments are whole).
type toolCalls struct {
	bufs []*toolBuf
	at   map[int64]*toolBuf
}

// heldCall is what holding one more tool call costs, counted with the
// bytes a reply holds (see heldBytes): its buffer, and its entries in
// toolCalls.
const heldCall = 256

// legacyCall is the index of the call sent in a function_call delta,
// apart from the indexes of tool_calls.
const legacyCall = -1

func (tc *toolCalls) add(index int64, id, name, args string) {
	tb := tc.at[index]
	if tb == nil || (id != "" && tb.id != "" && id != tb.id) || (id == "" && tb.id == "" && name != "" && args != "" && tb.name != "" && json.Valid([]byte(tb.args.String()))) {
		tb = &toolBuf{}
		if tc.at == nil {
			tc.at = map[int64]*toolBuf{}
		}
		tc.at[index] = tb
		tc.bufs = append(tc.bufs, tb)
	}
	if id != "" {
		tb.id = id
	}
	if name != "" {
		tb.name = name
	}
	tb.args.WriteString(args)
}

type toolBuf struct {
	id, name string
	args     strings.Builder
}

// complete returns the assembled call, the i-th of its reply.
func (tb *toolBuf) complete(i int) (*llm.ToolCall, error) {
	if tb.name == "" {
		return nil, fmt.Errorf("tool call %q has no function name", tb.id)
	}
	args, err := apierr.ToolArgs(tb.name, tb.id, tb.args.String())
	if err != nil {
		return nil, err
	}
	id := tb.id
	if id == "" {
		// Some local servers omit IDs; the runner needs one to pair results,
		// unique within the reply even when one tool is called twice.
		id = fmt.Sprintf("call_%d_%s", i, tb.name)
	}
	return &llm.ToolCall{ID: id, Name: tb.name, Args: args}, nil
}

func stopReason(s string) string {
	switch s {
	case "tool_calls", "function_call", "tool_use":
		// tool_use is Anthropic's, which proxies in front of it pass
		// through.
		return llm.StopToolUse
	case "length", "max_tokens":
		// max_tokens is Anthropic's, which proxies in front of it pass
		// through.
		return llm.StopMaxTokens
	case "model_length", "model_context_window_exceeded":
		// Cut at the end of the context window rather than at
		// max_tokens: Mistral's word, and Anthropic's passed through.
		return llm.StopContextWindow
	case "content_filter", "safety", "recitation", "blocklist", "prohibited_content", "spii", "image_safety", "refusal":
		// OpenAI's and Azure's filters withheld the rest of the reply:
		// what came is not the answer, and the same request meets the
		// same filter. The others are Gemini's filters, by the names
		// proxies pass through, and Anthropic's refusal.
		return llm.StopRefusal
	}
	return llm.StopEnd
}

// knownFinishes are the finish reasons stopReason reads as the servers
// that send them mean them: OpenAI's, the others it names, and the words
// of servers that end a whole reply so (Anthropic's end_turn and
// stop_sequence passed through by proxies, Hugging Face TGI's
// eos_token, Together's eos). The reasons that fail the call (see apierr.FailedFinish)
// are not read as an end at all.
var knownFinishes = []string{
	"stop", "tool_calls", "function_call", "tool_use", "length", "max_tokens", "model_length", "model_context_window_exceeded",
	"content_filter", "safety", "recitation", "blocklist", "prohibited_content", "spii", "image_safety", "refusal",
	"end_turn", "stop_sequence", "eos_token", "eos",
}

// checkFinish says, once per model and reason, when a reply ended with a
// finish_reason Parley does not know (a newer API's, a compatible
// server's own word): it is read as the end of the reply, as "stop" is,
// and the user is told rather than have a new meaning pass unseen. A
// reply with no finish_reason at all (ended by "data: [DONE]") says
// nothing to check.
func (p *Provider) checkFinish(ctx context.Context, model, finish string) {
	if finish == "" || slices.Contains(knownFinishes, finish) {
		return
	}
	// The reason is the server's text: cleaned and cut before it is kept
	// or logged.
	said := apierr.Detail(finish)
	msg := p.unknownFinishes.UnknownReason(model+"\x00"+said, "finish_reason", said, "stop")
	if msg == "" {
		return
	}
	p.log.LogAttrs(ctx, slog.LevelWarn, msg, slog.String("provider", p.Name()), slog.String("model", model))
}

// mapErr classifies an error from the SDK for a call to model.
func (p *Provider) mapErr(ctx context.Context, model string, err error) *llm.Error {
	if e := p.errs.Classified(ctx, err); e != nil {
		return e
	}
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) && apiErr.StatusCode >= 400 {
		var h http.Header
		if apiErr.Response != nil {
			h = apiErr.Response.Header
		}
		e := p.errs.HTTP(apiErr.StatusCode, h, model, apiErr.Message, err)
		if apiErr.Code == "insufficient_quota" || apiErr.Type == "insufficient_quota" {
			// OpenAI's 429 for an account out of credit: waiting does not
			// refill it, so it is not retried as a rate limit is.
			e.Kind = llm.ErrBadRequest
			e.RetryAfter = 0
		}
		if sampleFailed(apiErr.Code) {
			e.Kind = llm.ErrMalformed
		}
		return e
	}
	var se *ssestream.StreamError
	if errors.As(err, &se) {
		return p.streamError(model, se.Event.Data)
	}
	return p.errs.Transport(ctx, err)
}

// sampleFailed reports an error code that says the server refused what
// the model wrote, not what was asked: Groq's 400 "tool_use_failed"
// ("Failed to call a function. Please adjust your prompt.") for a tool
// call it could not parse, and "json_validate_failed" for a reply that
// did not validate against the requested JSON. Another sample of the same
// request may well pass, so it is retried as a malformed reply is, rather
// than failing the turn as a bad request.
func sampleFailed(code string) bool {
	switch strings.ToLower(code) {
	case "tool_use_failed", "json_validate_failed":
		return true
	}
	return false
}

// streamError classifies an {"error": ...} event sent after the 200 status,
// from its code (an HTTP status for vLLM and OpenRouter, a name for OpenAI),
// its type and its message. The SDK's own text quotes the event raw; the
// error says the message instead, cleaned and bounded.
func (p *Provider) streamError(model string, data []byte) *llm.Error {
	var ev struct {
		Error json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(data, &ev)
	var obj struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	}
	if json.Unmarshal(ev.Error, &obj) != nil {
		// Ollama sends the error as a plain string.
		_ = json.Unmarshal(ev.Error, &obj.Message)
	}
	msg := apierr.Detail(obj.Message)
	kind := llm.ErrServer
	code := ""
	if obj.Code != nil {
		code = strings.ToLower(fmt.Sprint(obj.Code))
	}
	if msg == "" {
		// No message ({"error": {}}, a null one, ""): its JSON
		// quoted read as if the server's words were lost.
		msg = apierr.Unexplained(obj.Type, code)
	}
	typ := strings.ToLower(obj.Type)
	status := 0
	if f, ok := obj.Code.(float64); ok && f >= 400 && f < 600 {
		status = int(f)
	}
	switch {
	case sampleFailed(code):
		kind = llm.ErrMalformed
	case status != 0:
		kind = llm.KindForStatus(status)
	case strings.Contains(code, "rate_limit") || typ == "requests" || typ == "tokens":
		kind = llm.ErrRateLimited
	case strings.Contains(code, "overloaded") || strings.Contains(typ, "overloaded"):
		kind = llm.ErrOverloaded
	case typ == "invalid_request_error":
		kind = llm.ErrBadRequest
	}
	// A prompt too long for the context is a bad request whatever the
	// code says: retrying it cannot help.
	tooLong := apierr.ContextExceeded(msg)
	if tooLong || strings.Contains(code, "context_length") {
		kind = llm.ErrBadRequest
	}
	e := &llm.Error{Provider: p.Name(), Kind: kind, Err: fmt.Errorf("error event in stream: %s", msg)}
	if tooLong {
		e.Err = fmt.Errorf("%w\n%s", e.Err, apierr.ContextHint(model))
	}
	return e
}

// openAIsOwn reports whether baseURL is OpenAI's own API.
func openAIsOwn(baseURL string) bool {
	u, err := url.Parse(baseURL)
	return err == nil && strings.EqualFold(u.Hostname(), "api.openai.com")
}

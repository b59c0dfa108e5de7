package openai

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"slices"
	"strings"

	sdk "github.com/openai/openai-go/v3"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/internal/apierr"
)

// Fields that servers which copy the API reject, each in its own way, and
// that a call can do without or say otherwise:
//
//   - stream_options: Groq answers 400 "property 'stream_options' is
//     unsupported", TGI 422 "unknown field `stream_options`", servers built
//     on pydantic with extra fields forbidden 422 "extra_forbidden". Without
//     it the server sends no usage, which is then unknown
//     (llm.Usage.Unreported), not zero.
//   - max_completion_tokens: Azure's older API versions answer 400
//     "Unrecognized request argument supplied: max_completion_tokens", as do
//     servers older than the field; max_tokens says the same.
//   - max_tokens: OpenAI's reasoning models answer 400 "Unsupported
//     parameter: 'max_tokens' is not supported with this model. Use
//     'max_completion_tokens' instead."
//   - temperature: the same models answer "Unsupported parameter" or
//     "Unsupported value: 'temperature' does not support 0.3 with this
//     model"; without it they sample at their one allowed temperature.
//   - response_format (json_schema): DeepSeek answers 400 "This
//     response_format type is unavailable now" (422 "response_format.type
//     `json_schema` is unavailable now" on some of its endpoints), as do
//     servers without structured output. Without it the schema is given in
//     the system prompt: the reply is then JSON by instruction rather than
//     by constraint, which the callers' decoding tolerates (prose or a
//     fence around the document).
//   - strict (response_format.json_schema.strict): servers without strict
//     mode answer as OpenAI does to a parameter it does not know, 400
//     "Unknown parameter: 'response_format.json_schema.strict'." with the
//     path as param; gateways in front of Gemini 400 "Unknown name
//     \"strict\" ... Cannot find field.". Without it the schema still
//     constrains the reply, best effort rather than guaranteed, which the
//     callers' decoding tolerates as it does a schema in the prompt.
//     OpenAI's own API knows strict but refuses, in strict mode, a schema
//     that strict mode does not take: that is the schema's doing, not the
//     server's, and is learned per model and schema apart from the shape
//     (see strictRefused).
//   - tools are never dropped: Ollama answers 400 "<model> does not
//     support tools" for a model whose template has none, vLLM 400 "\"auto\"
//     tool choice requires --enable-auto-tool-choice and --tool-call-parser
//     to be set" when started without a tool parser, llama.cpp 400 "tools
//     param requires --jinja flag" when started without its templates; the
//     call fails with what to change (see Provider.noTools), since an agent
//     that researches with tools would otherwise argue from memory unseen.
const (
	fieldStreamOptions       = "stream_options"
	fieldMaxCompletionTokens = "max_completion_tokens"
	fieldMaxTokens           = "max_tokens"
	fieldTemperature         = "temperature"
	fieldResponseFormat      = "response_format"
	fieldStrict              = "strict"
	fieldTools               = "tools"
	// fieldLimit stands for the limit's value, lowered once to what the
	// server names (apierr.OutputLimit), whatever its field's name.
	fieldLimit = "limit"
)

// shape is which of those fields a call sends, and how.
type shape struct {
	legacyMax        bool // the limit as max_tokens, not max_completion_tokens
	noStreamOptions  bool
	noTemperature    bool
	noResponseFormat bool // the schema in the system prompt instead
	noStrict         bool // json_schema without strict
	maxCap           int  // the model's cap on its output, when lower than asked; 0 for none
}

// adapt returns the shape that does without field, the field a server
// rejected, and whether there is one.
func (s shape) adapt(field string) (shape, bool) {
	switch field {
	case fieldStreamOptions:
		s.noStreamOptions = true
	case fieldMaxCompletionTokens:
		s.legacyMax = true
	case fieldMaxTokens:
		s.legacyMax = false
	case fieldTemperature:
		s.noTemperature = true
	case fieldResponseFormat:
		s.noResponseFormat = true
	case fieldStrict:
		s.noStrict = true
	default:
		return s, false
	}
	return s, true
}

// serverFields keeps, of a shape one model's calls were accepted in, what
// belongs to the server rather than the model: whether it knows
// stream_options, max_completion_tokens or strict is its software's (its
// API version), so what was learned of those for one model is the first guess
// for the others; a model keeps its own answer for the rest, since
// OpenAI's reasoning models refuse max_tokens and temperature that others
// take.
func serverFields(learned shape) func(shape) shape {
	return func(def shape) shape {
		def.legacyMax, def.noStreamOptions, def.noStrict = learned.legacyMax, learned.noStreamOptions, learned.noStrict
		return def
	}
}

// sentFields lists the adaptable fields params carries.
func sentFields(params sdk.ChatCompletionNewParams) []string {
	var out []string
	if params.StreamOptions.IncludeUsage.Valid() {
		out = append(out, fieldStreamOptions)
	}
	if params.MaxCompletionTokens.Valid() {
		out = append(out, fieldMaxCompletionTokens)
	}
	if params.MaxTokens.Valid() {
		out = append(out, fieldMaxTokens)
	}
	if params.Temperature.Valid() {
		out = append(out, fieldTemperature)
	}
	if rf := params.ResponseFormat.OfJSONSchema; rf != nil {
		// strict first: a message that names its path
		// ("response_format.json_schema.strict") names both, and the
		// field is the path's last.
		if rf.JSONSchema.Strict.Valid() {
			out = append(out, fieldStrict)
		}
		out = append(out, fieldResponseFormat)
	}
	if len(params.Tools) > 0 {
		out = append(out, fieldTools)
	}
	return out
}

// strictRefused reports whether err is the server's refusal of the
// schema of params' strict json_schema response format as one strict
// mode does not take, and its reason. OpenAI (and Azure OpenAI) answer 400
// "Invalid schema for response_format 'NAME': In context=(...),
// 'additionalProperties' is required to be supplied and to be false." (or
// "'required' is required to be supplied and to be an array including
// every key in properties", "'allOf' is not permitted"), with param
// "response_format" and code null, or code "invalid_json_schema" as its
// Responses API does. Without strict the API takes any schema, and holds
// the reply to it as far as the model can. Parley's tools carry no
// strict, so the API's "Invalid schema for function" refusal is no strict
// one: dropping nothing fixes it, and it is the caller's to see.
func strictRefused(err error, params sdk.ChatCompletionNewParams) (string, bool) {
	rf := params.ResponseFormat.OfJSONSchema
	var e *sdk.Error
	if rf == nil || !rf.JSONSchema.Strict.Valid() || !rf.JSONSchema.Strict.Value || !errors.As(err, &e) || e.StatusCode != 400 {
		return "", false
	}
	onSchema := e.Param == "" || strings.HasPrefix(e.Param, fieldResponseFormat)
	if onSchema && (strings.HasPrefix(strings.ToLower(e.Message), "invalid schema for response_format") || e.Code == "invalid_json_schema") {
		return e.Message, true
	}
	return "", false
}

// laxKey keys what is learned of req's schema for its model: its name
// and its text, which a format may change under one name.
func laxKey(req llm.Request) string {
	if req.Schema == nil {
		return ""
	}
	sum := sha256.Sum256(req.Schema.JSON)
	return req.Model + "\x00" + req.Schema.Name + "\x00" + hex.EncodeToString(sum[:])
}

// sentLimit is the reply limit params asks for, 0 for none.
func sentLimit(params sdk.ChatCompletionNewParams) int {
	if params.MaxCompletionTokens.Valid() {
		return int(params.MaxCompletionTokens.Value)
	}
	if params.MaxTokens.Valid() {
		return int(params.MaxTokens.Value)
	}
	return 0
}

// outputLimit reads from a 400 answer the highest limit the server would
// take, when lower than asked (see apierr.OutputLimit).
func outputLimit(err error, asked int) (limit int, perModel, ok bool) {
	var e *sdk.Error
	if asked == 0 || !errors.As(err, &e) || e.StatusCode != 400 {
		return 0, false, false
	}
	return apierr.OutputLimit(e.Message, asked)
}

// rejectedField returns which of sent a 400 or 422 answer says the server
// does not accept, or "" when it says something else (see
// apierr.RejectedField).
func rejectedField(err error, sent []string) string {
	var e *sdk.Error
	if !errors.As(err, &e) || (e.StatusCode != 400 && e.StatusCode != 422) || sampleFailed(e.Code) {
		// A refused sample (see sampleFailed) quotes what the model
		// wrote, whose words are not the server's about a field.
		return ""
	}
	if slices.Contains(sent, fieldTools) && e.Param == "" &&
		(strings.Contains(e.Message, "--enable-auto-tool-choice") || strings.Contains(e.Message, "tools param requires --jinja")) {
		// vLLM and llama.cpp name the server's flags, not the field.
		return fieldTools
	}
	return apierr.RejectedField(e.Param, e.Code, e.Message, e.RawJSON(), sent)
}

// logShape says what a call to model learned to send differently from
// the shape its calls had before, one line for each change, so that a
// user sees why requests differ from what was asked and what it costs
// them. It is called when a shape is learned, which is once per model
// (the next calls are sent in that shape); calls made at the same time
// that learn the same find nothing new.
func (p *Provider) logShape(ctx context.Context, model string, old, learned shape) {
	say := func(level slog.Level, field, msg string, attrs ...slog.Attr) {
		attrs = append(attrs, slog.String("provider", p.Name()), slog.String("model", model), slog.String("field", field))
		p.log.LogAttrs(ctx, level, msg, attrs...)
	}
	if learned.noStreamOptions && !old.noStreamOptions {
		say(slog.LevelWarn, fieldStreamOptions, "the server refused stream_options: calls go without it, and the server sends no token counts, so usage and cost are unknown")
	}
	if learned.legacyMax != old.legacyMax {
		if learned.legacyMax {
			say(slog.LevelInfo, fieldMaxCompletionTokens, "the server refused max_completion_tokens: the reply limit is sent as max_tokens")
		} else {
			say(slog.LevelInfo, fieldMaxTokens, "the model refused max_tokens: the reply limit is sent as max_completion_tokens")
		}
	}
	if learned.noTemperature && !old.noTemperature {
		say(slog.LevelWarn, fieldTemperature, "the model refused temperature: calls go without it, at the model's own sampling temperature")
	}
	if learned.noResponseFormat && !old.noResponseFormat {
		say(slog.LevelWarn, fieldResponseFormat, "the server refused a json_schema response_format: the schema is given in the system prompt, so replies follow it by instruction, not by constraint")
	}
	if learned.noStrict && !old.noStrict {
		say(slog.LevelWarn, fieldStrict, "the server refused strict in the json_schema response_format: the schema is sent without it, so replies are held to it as far as the server can, not guaranteed")
	}
	if learned.maxCap > 0 && learned.maxCap != old.maxCap {
		say(slog.LevelWarn, "max_tokens", "the model writes fewer tokens per reply than asked: calls ask for at most its cap", slog.Int("max_tokens", learned.maxCap))
	}
}

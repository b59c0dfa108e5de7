package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/internal/apierr"
)

// Fields that servers speaking the Messages API refuse, in the API's own
// words for a field it does not know ("output_config: Extra inputs are not
// permitted") or a model's for a feature it lacks, and what a call does
// without them:
//
//   - output_config: Anthropic-compatible servers (and models) without
//     structured output; the schema is then sent as a forced tool
//     (StructuredForcedTool);
//   - tool_choice, forcing the structured-output tool: models that refuse
//     a forced tool get output_config instead (StructuredOutputFormat);
//   - cache_control: compatible servers without prompt caching; the call
//     goes without cache marks, and so without caching.
const (
	fieldOutputConfig = "output_config"
	fieldToolChoice   = "tool_choice"
	fieldCacheControl = "cache_control"
	// fieldLimit stands for max_tokens's value, lowered once to what the
	// API names (apierr.OutputLimit).
	fieldLimit = "limit"
)

// shape is how a call is sent.
type shape struct {
	structured StructuredMode
	noCache    bool
	maxCap     int // the model's cap on its output, when lower than asked; 0 for none
}

// sentFields lists the adaptable fields params carries.
func sentFields(params sdk.MessageNewParams, forced string, cached bool) []string {
	var out []string
	if forced != "" {
		out = append(out, fieldToolChoice)
	} else if params.OutputConfig.Format.Schema != nil {
		out = append(out, fieldOutputConfig)
	}
	if cached {
		out = append(out, fieldCacheControl)
	}
	return out
}

// open sends req in the shape last accepted for its model. When the API
// answers, before any output, that it does not accept one of the fields
// sent, the call is sent again without it, once per field; when it names a
// lower max_tokens than asked, once with that. The accepted shape is
// remembered; nothing else changes between the tries. forced is the name
// of the tool that carries structured output, "" when none does. The
// stream returned may still hold an error, which reading it reports.
//
// cont, when set, is the content of a paused turn, sent as the last,
// assistant, message (see stopPauseTurn).
func (p *Provider) open(ctx context.Context, req llm.Request, cont []sdk.ContentBlockParamUnion, opts []option.RequestOption) (stream *ssestream.Stream[sdk.MessageStreamEventUnion], forced string, err error) {
	sh := p.shapes.Get(req.Model)
	adapted, keepCap, learnedCap := false, true, sh.maxCap
	tried := map[string]bool{}
	for {
		params, forced, err := p.params(req, sh)
		if err != nil {
			return nil, "", &llm.Error{Provider: p.Name(), Kind: llm.ErrBadRequest, Err: err}
		}
		if len(cont) > 0 {
			params.Messages = append(params.Messages, sdk.NewAssistantMessage(cont...))
		}
		if sh.maxCap > 0 && params.MaxTokens > int64(sh.maxCap) {
			params.MaxTokens = int64(sh.maxCap)
		}
		stream := p.client.Messages.NewStreaming(ctx, params, opts...)
		next, key := sh, ""
		var e *sdk.Error
		if errors.As(stream.Err(), &e) && forced == "" && req.Schema != nil {
			if msg, ok := schemaRefusal(e); ok {
				// The server takes output_config but not this schema: a
				// forced tool would not make the schema right, and
				// current models refuse a forced tool_choice anyway.
				_ = stream.Close()
				return nil, "", &llm.Error{Provider: p.Name(), Kind: llm.ErrBadRequest, Err: apierr.Hide(fmt.Sprintf(
					"structured-output schema %q refused by the server: %s: the schema uses JSON Schema that the server's structured outputs do not take; remove it from the schema and check the value when the reply is parsed",
					req.Schema.Name, apierr.Detail(msg)), e)}
			}
		}
		if errors.As(stream.Err(), &e) && (e.StatusCode == http.StatusBadRequest || e.StatusCode == http.StatusUnprocessableEntity) {
			switch apierr.RejectedField("", "", e.Message, e.RawJSON(), sentFields(params, forced, cacheMarked(req))) {
			case fieldOutputConfig:
				next.structured, key = StructuredForcedTool, "structured"
			case fieldToolChoice:
				next.structured, key = StructuredOutputFormat, "structured"
			case fieldCacheControl:
				next.noCache, key = true, fieldCacheControl
			default:
				if limit, perModel, ok := outputLimit(e, int(params.MaxTokens)); ok {
					// The limit asked for (the turn's whole budget, or the
					// default) is more than the model writes or the
					// window leaves.
					next.maxCap, keepCap, key = limit, perModel, fieldLimit
				}
			}
		}
		if key == "" || tried[key] {
			if adapted && stream.Err() == nil {
				if !keepCap {
					sh.maxCap = learnedCap
				}
				old := p.shapes.Set(req.Model, sh, nil)
				p.logShape(ctx, req.Model, old, sh)
			}
			return stream, forced, nil
		}
		_ = stream.Close()
		tried[key], adapted, sh = true, true, next
	}
}

// cacheMarked reports whether req asks for cache breakpoints.
func cacheMarked(req llm.Request) bool {
	if req.CacheSystem && req.System != "" {
		return true
	}
	for _, m := range req.Messages {
		if m.Cache {
			return true
		}
	}
	return false
}

// outputLimit reads from a 400 answer the highest max_tokens the API
// would take, when lower than asked (see apierr.OutputLimit): "max_tokens:
// 64000 > 32000, which is the maximum allowed number of output tokens for
// claude-opus-4-20250514".
func outputLimit(e *sdk.Error, asked int) (limit int, perModel, ok bool) {
	if e.StatusCode != http.StatusBadRequest {
		return 0, false, false
	}
	return apierr.OutputLimit(apiMessage(e), asked)
}

// apiMessage is the error.message of an API error answer, or the SDK's
// message when the body is not the API's JSON.
func apiMessage(e *sdk.Error) string {
	var body struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(e.RawJSON()), &body) == nil && body.Error.Message != "" {
		return body.Error.Message
	}
	return e.Message
}

// schemaPaths are how the API names the structured-output schema when it
// refuses something inside it ("output_config.format.schema: For
// 'integer' type, property 'minimum' is not supported"; the beta's
// output_format.schema in answers from before output_config, see
// package strictschema): a member of output_config, not output_config
// itself, which a server that does not know the field refuses as
// "output_config: Extra inputs are not permitted".
var schemaPaths = []string{"output_config.format.schema", "output_format.schema"}

// schemaRefusal returns the API's message when a 400 answer refuses the
// schema sent in output_config.format rather than the field.
func schemaRefusal(e *sdk.Error) (string, bool) {
	if e.StatusCode != http.StatusBadRequest {
		return "", false
	}
	msg := apiMessage(e)
	for _, p := range schemaPaths {
		if strings.Contains(msg, p) {
			return msg, true
		}
	}
	return "", false
}

// logShape says what a call to model learned to send differently from
// the shape its calls had before, one line for each change, so that a
// user sees why requests differ from what was asked and what it costs
// them. It is called when a shape is learned, which is once per model;
// calls made at the same time that learn the same find nothing new.
func (p *Provider) logShape(ctx context.Context, model string, old, learned shape) {
	say := func(level slog.Level, field, msg string, attrs ...slog.Attr) {
		attrs = append(attrs, slog.String("provider", p.Name()), slog.String("model", model), slog.String("field", field))
		p.log.LogAttrs(ctx, level, msg, attrs...)
	}
	if learned.structured != old.structured {
		if learned.structured == StructuredForcedTool {
			say(slog.LevelInfo, fieldOutputConfig, "the server refused output_config: structured output is asked for with a forced tool")
		} else {
			say(slog.LevelInfo, fieldToolChoice, "the model refused a forced tool_choice: structured output is asked for with output_config")
		}
	}
	if learned.noCache && !old.noCache {
		say(slog.LevelWarn, fieldCacheControl, "the server refused cache_control: calls go without prompt caching, so repeated context is read, and billed, in full")
	}
	if learned.maxCap > 0 && learned.maxCap != old.maxCap {
		say(slog.LevelWarn, "max_tokens", "the model writes fewer tokens per reply than asked: calls ask for at most its cap", slog.Int("max_tokens", learned.maxCap))
	}
}

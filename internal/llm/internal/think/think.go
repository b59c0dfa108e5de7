// Package think drops the reasoning that reasoning models served without a
// reasoning parser put in their answer's text, inside <think> tags. The
// providers share it: an OpenAI-compatible server puts it in content, an
// Anthropic-compatible one (vLLM's /v1/messages, LiteLLM and other proxies
// in front of such a model) in text blocks, in the same two forms.
package think

import (
	"fmt"
	"log/slog"
	"strings"
)

const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// Reasoning models (DeepSeek-R1, Qwen3, QwQ) served without a reasoning
// parser (vLLM without --reasoning-parser, llama.cpp with --reasoning-format
// none, older Ollama) send their reasoning inside content rather than in
// reasoning_content (or an Anthropic thinking block). It is the model's scratchpad, not its answer, and
// braces in it would mislead the search for a JSON reply, so it is dropped.
// It comes in one of two forms, fixed by the model's chat template:
//
//   - "<think>…</think>answer": the model opens the block itself;
//   - "…</think>answer": the template already put "<think>" at the end of
//     the prompt (DeepSeek-R1 and its distills, QwQ, Qwen3 thinking
//     models), so the reply holds only the closing tag. Nothing before the
//     tag tells reasoning from an answer.
//
// A provider cannot take back text it has passed on (llm.Chunk has no
// reset, and the runner shows and stores deltas as they come), and holding
// every reply back until its end would stop all streaming for every model
// to serve a few. So what is learned is remembered per model (a provider
// keeps each model's Mode):
//
//   - a model not seen yet has its reply passed on as it comes, watched for
//     a closing tag with no opening one. When the tag comes before anything
//     was passed on (a whole reply in one chunk, an empty reasoning), the
//     text before it is dropped and the reply is right. When it comes
//     after, the reasoning was passed on as the answer: the call fails
//     with a retryable error, and the model is marked;
//   - a marked model's replies are held back until "</think>", so the call
//     tried again, and every later one, yields only the answer;
//   - a model whose reply finished without an orphan tag is marked plain
//     and no longer watched, so that an answer that mentions "</think>"
//     (a debate about reasoning parsers) is kept whole.
type Mode int

const (
	Unknown Mode = iota // no finished reply seen yet
	Plain               // replies open their own block, if any
	Orphan              // the template opens the block: replies start inside it
	// Opens is Plain for a model seen to open a block at the start of
	// its reply, whose reasoning is dropped: the same handling, told
	// apart so that it is said once (see Change).
	Opens
)

// MaxHeld bounds the reasoning of an Orphan model held back in case no
// "</think>" comes (see Flush): 1 MB, what the runner keeps of a whole
// reply. Past it the text is dropped as reasoning.
const MaxHeld = 1 << 20

// Filter drops the reasoning from one reply's content deltas. Tags may
// be split across deltas, so undecided text is held back until it is
// decided.
type Filter struct {
	mode    Mode
	state   int    // thinkStart, thinkInside or thinkDone
	pending string // undecided text; inside an orphan block, all of it
	// scanned is how much of pending was searched for the closing tag
	// without finding it.
	scanned  int
	overflow bool // pending passed MaxHeld and was cut
	watching bool // Unknown: look for an orphan closing tag
	passed   bool // text other than white space was passed on
	opened   bool // the reply opened its own block
	orphan   bool // the reply held an orphan closing tag
}

const (
	thinkStart = iota
	thinkInside
	thinkDone
)

// New returns a Filter for one reply of a model in mode.
func New(mode Mode) *Filter {
	f := &Filter{mode: mode, watching: mode == Unknown}
	if mode == Orphan {
		f.state = thinkInside
	}
	return f
}

// Feed takes a content delta and returns the text to pass on. late reports
// an orphan closing tag that came after reasoning was passed on as the
// answer: the reply cannot be put right, and the call should fail.
func (f *Filter) Feed(s string) (out string, late bool) {
	switch f.state {
	case thinkDone:
		if !f.watching {
			return f.pass(s), false
		}
		return f.watch(s)
	case thinkStart:
		f.pending += s
		t := strings.TrimLeft(f.pending, " \t\r\n")
		switch {
		case strings.HasPrefix(t, thinkOpen):
			f.state, f.pending, f.opened, f.watching = thinkInside, t[len(thinkOpen):], true, false
		case strings.HasPrefix(thinkOpen, t) || f.watching && len(t) < len(thinkClose) && strings.HasPrefix(thinkClose, t):
			return "", false // maybe the start of a tag: wait
		default:
			f.state = thinkDone
			out, f.pending = f.pending, ""
			if f.watching {
				return f.watch(out)
			}
			return f.pass(out), false
		}
	default:
		f.pending += s
	}
	// Inside the block: look for its end, in what was not searched yet.
	from := max(f.scanned-len(thinkClose)+1, 0)
	if i := strings.Index(f.pending[from:], thinkClose); i >= 0 {
		out := strings.TrimLeft(f.pending[from+i+len(thinkClose):], " \t\r\n")
		f.state, f.pending, f.scanned = thinkDone, "", 0
		return f.pass(out), false
	}
	keep := len(thinkClose) - 1
	if f.mode == Orphan && !f.overflow {
		// Held whole, in case the close never comes (see Flush).
		keep = MaxHeld
	}
	if len(f.pending) > keep {
		f.overflow = f.overflow || f.mode == Orphan
		f.pending = f.pending[len(f.pending)-(len(thinkClose)-1):]
	}
	f.scanned = len(f.pending)
	return "", false
}

// watch passes s on, but for a tail that may be the start of a split tag,
// looking for a closing tag that no opening one came before.
func (f *Filter) watch(s string) (string, bool) {
	buf := f.pending + s
	f.pending = ""
	o, c := strings.Index(buf, thinkOpen), strings.Index(buf, thinkClose)
	switch {
	case o >= 0 && (c < 0 || o < c):
		// A block the model opened itself, inside its answer: its own
		// text, and no orphan is coming.
		f.watching = false
		return f.pass(buf), false
	case c >= 0:
		f.orphan, f.watching = true, false
		if f.passed {
			return "", true
		}
		// Nothing was passed on yet: what came before the tag is the
		// reasoning, and is dropped.
		return f.pass(strings.TrimLeft(buf[c+len(thinkClose):], " \t\r\n")), false
	}
	keep := 0
	for n := min(len(buf), len(thinkClose)-1); n > 0; n-- {
		if tail := buf[len(buf)-n:]; strings.HasPrefix(thinkClose, tail) || strings.HasPrefix(thinkOpen, tail) {
			keep = n
			break
		}
	}
	f.pending = buf[len(buf)-keep:]
	return f.pass(buf[:len(buf)-keep]), false
}

func (f *Filter) pass(s string) string {
	if !f.passed && strings.TrimSpace(s) != "" {
		f.passed = true
	}
	return s
}

// Flush returns what is held back when the reply ends, with the stop
// reason the server gave. An unclosed block the model opened (the reply
// was cut while the model was thinking) yields nothing. So does an orphan
// block cut at the token limit; one that ended normally without its tag is
// returned whole: the model answered without reasoning, or was marked
// wrongly, and either way the text is all there is.
func (f *Filter) Flush(cut bool) string {
	switch {
	case f.state == thinkStart, f.state == thinkDone:
		out := f.pending
		f.pending = ""
		return f.pass(out)
	case f.mode == Orphan && !cut && !f.overflow:
		out := strings.TrimLeft(f.pending, " \t\r\n")
		f.pending = ""
		return f.pass(out)
	}
	return ""
}

// Learned returns the model's mode after this reply, which ended with the
// stop reason given (cut: at the token limit).
func (f *Filter) Learned(cut bool) Mode {
	switch {
	case f.orphan:
		return Orphan
	case f.mode == Orphan && f.state == thinkInside && !cut && strings.TrimSpace(f.pending) != "":
		// Finished with text but without the tag it was marked for: watch
		// it again. A reply with no text (tool calls alone) says nothing.
		return Unknown
	case f.opened && !cut && (f.mode == Unknown || f.mode == Plain):
		return Opens
	case f.mode == Unknown && !cut && (f.opened || f.passed):
		return Plain
	}
	return f.mode
}

// Change says, for a log line, what a model's change of mode from one to
// another means for its replies, and how much it matters; ok is false for
// a change worth no line (a model found to reply plainly). A provider says
// it when it learns the change, once per model, so that a user sees why
// replies differ from what the server sent.
func Change(from, to Mode) (level slog.Level, msg string, ok bool) {
	switch {
	case from == to:
		return 0, "", false
	case to == Orphan:
		return slog.LevelWarn, "the model sends its reasoning in the answer's text, ended by </think> with the opening tag in its chat template, " +
			"and the server does not separate it (vLLM: --reasoning-parser; llama.cpp: --reasoning-format deepseek): " +
			"its replies are held back until </think> and what comes before is dropped", true
	case to == Opens:
		return slog.LevelInfo, "the model sends its reasoning in the answer's text, inside <think> tags, and the server does not separate it: it is dropped", true
	case from == Orphan:
		return slog.LevelInfo, "the model answered without the </think> it was marked for: its replies are passed on as they come again, watched for one", true
	}
	return 0, "", false
}

// Unclosed reports whether the reply ended inside a <think> block it
// opened itself. Ended normally so, it has no answer at all, only the
// start of its reasoning: a degenerate sample (an end-of-text token
// inside the block), which read as the answer would be an empty turn.
func (f *Filter) Unclosed() bool { return f.state == thinkInside && f.opened }

// UnclosedError says why a reply that ended normally inside the <think>
// block it opened failed. Another sample of the same call may well close
// it.
func UnclosedError(model string) error {
	return fmt.Errorf("model %q ended its reply inside the <think> block it opened, without closing it: the reply has reasoning and no answer", model)
}

// Mode is the mode the filter was made for.
func (f *Filter) Mode() Mode { return f.mode }

// Passed reports whether text other than white space was passed on.
func (f *Filter) Passed() bool { return f.passed }

// LateError says why a reply whose reasoning ended with an orphan
// "</think>" after it had been passed on as the answer failed, and what
// fixes it on the server. The call is worth trying again: the model is
// then known to reply that way (Orphan), and its reply is held back until
// the tag.
func LateError(model string) error {
	return fmt.Errorf("model %q sent its reasoning as the answer, ending it with </think> but never opening it: its chat template opens <think> in the prompt "+
		"and the server does not separate reasoning (vLLM: --reasoning-parser; llama.cpp: --reasoning-format deepseek); "+
		"asked again, the reply is held back until </think>", model)
}

package bullbear

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
)

// Follow-up questions (spec: "Post-debate: follow-ups allowed to any
// agent"). A question is recorded as a note and its answer as a completed
// turn "ask/<n>/<agent>", appended together once the answer is in, so that
// the log never holds a question without its answer.

// noteAsk is the note that records a follow-up question.
const noteAsk = "bullbear.ask"

// AskTurnPrefix starts the ids of follow-up turns.
const AskTurnPrefix = "ask/"

// askMaxTokens bounds a follow-up answer: a few paragraphs.
const askMaxTokens = 1500

// AskData is the data of a follow-up question's note.
type AskData struct {
	Turn     string `json:"turn"`
	Agent    string `json:"agent"`
	Question string `json:"question"`
}

// FollowUp is a question put to one agent after the debate, and its answer.
type FollowUp struct {
	Question string
	Agent    string
	Answer   *debate.Turn // nil when the log has the question only
}

// ErrNotFinished is returned for a follow-up to a debate that has not ended.
var ErrNotFinished = errors.New("the debate has not finished")

// Ask prepares a follow-up question to agent (bull, bear or moderator) of a
// completed debate: the turn to run, with the whole debate as its context,
// and the note that records the question. The agent keeps its role: the bull
// and bear answer as advocates with the system prompt they debated with, the
// moderator as the impartial judge.
func (Format) Ask(s *debate.State, agent, question string) (debate.TurnSpec, debate.Note, error) {
	agent = strings.ToLower(strings.TrimSpace(agent))
	question = strings.TrimSpace(question)
	switch {
	case agent != AgentBull && agent != AgentBear && agent != AgentModerator:
		return debate.TurnSpec{}, debate.Note{}, fmt.Errorf("--agent %q: ask bull, bear or moderator", agent)
	case question == "":
		return debate.TurnSpec{}, debate.Note{}, errors.New("the question is empty: ask something, for example \"What would change your mind?\"")
	case s.Status != debate.StatusCompleted:
		return debate.TurnSpec{}, debate.Note{}, fmt.Errorf("%w (it is %s): follow-up questions come after the moderator's synthesis", ErrNotFinished, s.Status)
	}
	p, err := protocolFor(s.Topic, s.Options)
	if err != nil {
		return debate.TurnSpec{}, debate.Note{}, err
	}
	v := p.derive(s)
	prev := FollowUps(s)
	id := fmt.Sprintf("%s%d/%s", AskTurnPrefix, len(prev)+1, agent)

	var task strings.Builder
	if agent != AgentModerator {
		task.WriteString(p.roleLine(agent))
	}
	if len(prev) > 0 {
		task.WriteString("EARLIER FOLLOW-UP QUESTIONS:\n")
		for _, f := range prev {
			fmt.Fprintf(&task, "Q (to the %s): %s\n", f.Agent, f.Question)
			if f.Answer != nil {
				fmt.Fprintf(&task, "A (%s): %s\n", f.Agent, strings.TrimSpace(f.Answer.Text))
			}
			task.WriteString("\n")
		}
	}
	fmt.Fprintf(&task, "FOLLOW-UP QUESTION from the user, after the debate:\n%s\n\n", question)
	system := p.system()
	switch agent {
	case AgentModerator:
		system = strings.TrimSuffix(fmt.Sprintf(moderatorSystem, p.who()), " Reply with the JSON object only.")
		task.WriteString("Answer as the moderator: impartially, from the arguments and the fact check above, in plain prose (no JSON). Say which side the evidence favours on this question and what would change that.")
	default:
		fmt.Fprintf(&task, "Answer as the %s, in plain prose: stay in your role, cite the figures you rely on inline, concede what the %s got right, and keep to a few short paragraphs.",
			agent, opponent(agent))
	}
	spec := debate.TurnSpec{
		TurnRef: debate.TurnRef{ID: id, Agent: agent, Role: agent, Label: title(agent) + " · follow-up", Phase: "ask"},
		System:  system,
		// The debate record comes first and is the same for every question
		// (and, after the debaters' shared system prompt, for both of them),
		// so that a provider with prompt caching reads it from the cache from
		// the second question on.
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: p.record(v), Cache: true},
			{Role: llm.RoleUser, Text: task.String()},
		},
		MaxTokens:  askMaxTokens,
		Unbudgeted: true,
	}
	data, err := json.Marshal(AskData{Turn: id, Agent: agent, Question: question})
	if err != nil {
		return debate.TurnSpec{}, debate.Note{}, err
	}
	return spec, debate.Note{Kind: noteAsk, Text: fmt.Sprintf("Follow-up to the %s: %s", agent, question), Data: data}, nil
}

// record is the whole debate as context for a follow-up question.
func (p *Protocol) record(v *view) string {
	var b strings.Builder
	fmt.Fprintf(&b, "THE DEBATE ON %s (finished).\n", p.who())
	b.WriteString(p.dataLine())
	b.WriteString("\n")
	for _, side := range sides {
		if t := v.research[side]; t != nil {
			fmt.Fprintf(&b, "%s RESEARCH SUMMARY:\n%s\n\n", strings.ToUpper(side), strings.TrimSpace(t.Text))
		}
	}
	b.WriteString(transcript(v, p.Rounds()+1, ""))
	if v.check != nil {
		if len(v.check.Discrepancies) > 0 {
			fmt.Fprintf(&b, "FACT CHECK (by Parley, against the %s):\n%s\n", p.annualForm(), factLines(v.check))
		} else {
			fmt.Fprintf(&b, "FACT CHECK (by Parley, against the %s): %d cited figure(s) checked, no discrepancy.\n\n", p.annualForm(), v.check.Checked)
		}
	}
	for _, side := range sides {
		if t := v.reconcile[side]; t != nil {
			fmt.Fprintf(&b, "%s RECONCILIATION:\n%s\n\n", strings.ToUpper(side), strings.TrimSpace(t.Text))
		}
	}
	if syn := v.synthesis; syn != nil {
		fmt.Fprintf(&b, "MODERATOR SYNTHESIS:\nConviction: %d/10 %s\n%s\n%s\n", syn.Score, syn.Stance, strings.TrimSpace(syn.Conviction), strings.TrimSpace(syn.ThesisBreaker))
		for _, c := range syn.Contentions {
			fmt.Fprintf(&b, "- Contention %s: bull: %s; bear: %s\n", c.Topic, c.Bull, c.Bear)
		}
		if s := strings.TrimSpace(syn.Summary); s != "" {
			fmt.Fprintf(&b, "%s\n", s)
		}
	}
	return b.String()
}

// FollowUps lists the follow-up questions of a debate in the order they were
// asked, each with its answer.
func FollowUps(s *debate.State) []FollowUp {
	var out []FollowUp
	for _, n := range s.Notes {
		if n.Kind != noteAsk {
			continue
		}
		var d AskData
		if json.Unmarshal(n.Data, &d) != nil {
			continue
		}
		out = append(out, FollowUp{Question: d.Question, Agent: d.Agent, Answer: s.Completed(d.Turn)})
	}
	return out
}

// isAsk reports whether a turn answers a follow-up question rather than
// being part of the debate.
func isAsk(t *debate.Turn) bool { return strings.HasPrefix(t.ID, AskTurnPrefix) }

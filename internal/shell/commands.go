package shell

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/report"
	"github.com/parleyhq/parley/internal/setup"
)

// commands are the slash commands, in the order /help lists them.
var commands = []struct{ name, args, help string }{
	{"debate", "TOPIC|TICKER [flags]", "start a debate; the flags of 'parley debate' (--deep, --framework, --format, --offline, …)"},
	{"resume", "[ID]", "resume a paused debate (the latest when no ID is given)"},
	{"list", "", "list the debates, newest first"},
	{"show", "ID", "show a debate's document"},
	{"export", "ID --as md|json|pdf [-o FILE] [--summary] [--force]", "write a debate's document to a file (--force replaces one that exists)"},
	{"delete", "ID", "delete a debate and its log, after asking (not one that is running)"},
	{"ask", "AGENT QUESTION", "ask an agent of the debate a follow-up question"},
	{"hint", "AGENT TEXT", "hint an agent of the shell's debate, wherever it runs (or type AGENT: TEXT)"},
	{"cost", "[ID]", "what the debate cost, per agent"},
	{"model", "[[PROVIDER/]NAME|default]", "show or choose the model of new debates"},
	{"help", "", "this list"},
	{"quit", "", "leave (a running debate is paused)"},
}

// question is something the shell asked; the next line answers it.
type question struct {
	prompt      string
	placeholder string
	answer      func(line string) tea.Cmd
}

// pendingPrompt is the prompt of what waits for the next line typed (a
// question, a checkpoint), "" for nothing.
func (m *Model) pendingPrompt() string {
	switch {
	case m.question != nil:
		return m.question.prompt
	case m.check != nil && m.check.guiding:
		return guidancePrompt
	case m.check != nil:
		return "Checkpoint: [C]ontinue, [G]uide or [E]nd early?"
	}
	return ""
}

// guidancePrompt asks for a checkpoint's guidance.
const guidancePrompt = "Type your guidance for the next round (empty to continue without)."

// ask asks the user something; answer gets the next line typed.
func (m *Model) askUser(prompt, placeholder string, answer func(line string) tea.Cmd) {
	m.question = &question{prompt: prompt, placeholder: placeholder, answer: answer}
	m.setBelow(prompt)
}

// submit handles a line typed at the prompt.
func (m *Model) submit(line string) tea.Cmd {
	line = strings.TrimSpace(line)
	if line == "" {
		// An empty line is an answer where one is awaited: the default of
		// "[Y/n]", no guidance at a checkpoint; elsewhere it does nothing.
		switch {
		case m.question != nil:
			q := m.question
			m.question = nil
			m.setBelow()
			return q.answer("")
		case m.check != nil && m.check.guiding:
			m.answerCheckpoint("")
		}
		return nil
	}
	m.history.add(line)
	// What is under the input line answered the previous line (an error,
	// a notice); the new line gets its own answer, or none. A pending
	// question keeps its prompt until it is answered.
	if m.question == nil && m.check == nil {
		m.setBelow()
	}
	switch {
	case m.question != nil && strings.HasPrefix(line, "/"):
		// A /command is no answer ("Which one?" would take it for "start
		// nothing" and the command would never run): the question is
		// dropped, as by Ctrl+C, and the command runs.
		m.question = nil
		m.setBelow()
		return m.command(line)
	case m.question != nil:
		q := m.question
		m.question = nil
		m.setBelow()
		m.echo(line)
		return q.answer(line)
	case m.check != nil && (m.check.guiding || !strings.HasPrefix(line, "/")):
		// Guidance is free text; otherwise a /command (/quit, /cost, /hint)
		// is one, not a wrong answer: the checkpoint waits on.
		m.answerCheckpoint(line)
		return nil
	case strings.HasPrefix(line, "/"):
		return m.command(line)
	case m.run != nil:
		return m.hint(line)
	case m.ask != nil:
		m.setBelow("A follow-up is being answered; Ctrl+C stops it.")
		return nil
	case m.busy != "":
		m.setBelow("Wait: " + m.busy)
		return nil
	}
	if m.hintOutsideRun(line) {
		return nil
	}
	if f := strings.Fields(line); len(f) > 1 && strings.EqualFold(f[0], "debate") &&
		slices.ContainsFunc(f[1:], func(w string) bool { return strings.HasPrefix(w, "--") }) {
		// "debate NVDA --offline": /debate with its flags, typed without
		// its slash. Read in words, the flags would be taken for part of a
		// company's name ("No company called \"NVDA --offline\"").
		return m.command("/" + line)
	}
	m.echo(line)
	return m.trigger(line)
}

// hintOutsideRun answers a hint typed while no debate runs (AGENT: TEXT
// naming an agent of the shell's debate, as in "bull: mention the new
// chip" after Ctrl+C): it cannot be queued, and the answer says what can
// be done, instead of taking the line for a request to start a debate
// ("That starts nothing").
func (m *Model) hintOutsideRun(line string) bool {
	v := m.views[m.current]
	if v == nil || v.state.ID == "" {
		return false
	}
	if _, _, ok, _ := parseHint(line, m.hintTargets(v)); !ok {
		return false
	}
	switch {
	case v.state.Status == debate.StatusCompleted:
		m.setBelow(fmt.Sprintf("Hint not queued: debate %s has ended. /ask AGENT QUESTION asks its agents a follow-up.", v.state.ID))
	case m.app.Standing(m.ctx, v.state).Held != nil:
		m.setBelow(fmt.Sprintf("Hint not queued: debate %s runs in another process. /hint AGENT TEXT queues it there.", v.state.ID))
	default:
		m.setBelow(fmt.Sprintf("Hint not queued: debate %s is not running. /resume goes on with it; type the hint then, or /hint AGENT TEXT queues it now.", v.state.ID))
	}
	return true
}

// hintElsewhere queues /hint AGENT TEXT for the shell's debate when the
// shell does not run it: a worker or another terminal runs it, or it waits
// (paused, at a checkpoint). The hint goes into the debate's log, which the
// runner that has it, in any process, reads before its next step, and a
// debate that waits reads when it goes on.
func (m *Model) hintElsewhere(args []string) {
	if m.current == "" {
		m.setBelow("No debate to hint: /show ID or /resume ID chooses one, /debate starts one.")
		return
	}
	st, format, err := m.app.Load(m.ctx, m.current)
	if err != nil {
		m.fail(err)
		return
	}
	v := &debateView{state: st, format: format}
	if st.Status == debate.StatusCompleted {
		m.setBelow(fmt.Sprintf("Hint not queued: debate %s has ended. /ask AGENT QUESTION asks its agents a follow-up.", st.ID))
		return
	}
	targets := m.hintTargets(v)
	if len(args) < 2 {
		agent := "AGENT"
		if len(targets) > 0 {
			agent = targets[0]
		}
		m.setBelow(fmt.Sprintf("/hint AGENT TEXT queues a hint for debate %s, for example /hint %s weigh the running cost", st.ID, agent))
		return
	}
	if strings.EqualFold(args[0], "moderator") {
		m.setBelow("The moderator takes no hints: it must remain impartial. Hint " + strings.Join(append(targets, "all"), ", ") + ".")
		return
	}
	target, text, err := app.ResolveHint(targets, args[0], strings.Join(args[1:], " "), true)
	if err != nil {
		m.setBelow("Hint not queued: " + err.Error() + ".")
		return
	}
	h, err := m.app.QueueHint(m.ctx, st.ID, target, text)
	if err != nil {
		m.fail(err)
		return
	}
	when := fmt.Sprintf("It applies when debate %s goes on (/resume %s)", st.ID, st.ID)
	if l := m.app.Standing(m.ctx, st).Held; l != nil {
		when = fmt.Sprintf("Process %d on host %s runs debate %s and reads it before its next step", l.Owner.PID, clean(l.Owner.Host), st.ID)
	}
	// Under the input line, as every hint is: a follow-up may be
	// streaming into the transcript.
	m.setBelow()
	m.below = append(m.below, belowLine{hint, clean(hintLine(v, h))}, belowLine{plain, "  " + when + "."})
}

// command runs a slash command.
func (m *Model) command(line string) tea.Cmd {
	args, err := splitArgs(strings.TrimPrefix(line, "/"))
	if err != nil {
		m.setBelow(fmt.Sprintf("%s: %v", line, err))
		return nil
	}
	if len(args) == 0 {
		m.setBelow("A command name goes after the /, such as /debate or /help; /help lists them.")
		return nil
	}
	name, rest := strings.ToLower(args[0]), args[1:]
	if name == "exit" {
		name = "quit"
	}
	busy := m.run != nil || m.ask != nil || m.busy != ""
	switch name {
	case "hint":
		if m.run == nil {
			m.hintElsewhere(rest)
			return nil
		}
		if len(rest) < 2 {
			agent, text := m.hintExample()
			m.setBelow("/hint AGENT TEXT, for example /hint " + agent + " " + text)
			return nil
		}
		return m.hint(rest[0] + ": " + strings.Join(rest[1:], " "))
	case "quit":
		return m.quit()
	case "cost":
		if m.run != nil {
			if v := m.views[m.run.id]; v != nil {
				m.setBelow(fmt.Sprintf("So far: %s, %s tokens.", spent(v).Text("cost"), report.Thousands(v.state.Usage.Total())))
			}
			return nil
		}
	}
	if busy && !slices.ContainsFunc(commands, func(c struct{ name, args, help string }) bool { return c.name == name }) {
		// A mistyped command does not wait for the debate: it is none.
		m.setBelow(unknownCommand(name))
		return nil
	}
	if busy {
		what := "a debate is running (Ctrl+C pauses it)"
		if m.run == nil {
			what = "the shell is busy (Ctrl+C stops it)"
		}
		m.setBelow(fmt.Sprintf("/%s waits: %s. Type AGENT: TEXT for a hint.", name, what))
		return nil
	}
	m.echo(line)
	switch name {
	case "debate":
		return m.cmdDebate(rest)
	case "resume":
		return m.cmdResume(rest)
	case "list":
		m.cmdList(rest)
	case "show":
		m.cmdShow(rest)
	case "export":
		return m.cmdExport(rest)
	case "delete":
		m.cmdDelete(rest)
	case "ask":
		return m.cmdAsk(rest)
	case "cost":
		m.cmdCost(rest)
	case "model":
		m.cmdModel(rest)
	case "help":
		m.cmdHelp(rest)
	default:
		m.fail(errors.New(unknownCommand(name)))
	}
	return nil
}

// unknownCommand says that /name is no command, suggesting the one meant.
func unknownCommand(name string) string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	if s := app.Suggest(name, names); len(s) > 0 {
		return fmt.Sprintf("unknown command /%s: did you mean /%s? /help lists the commands", clean(app.Truncate(name, 40)), strings.Join(s, ", /"))
	}
	return fmt.Sprintf("unknown command /%s: /help lists the commands", clean(app.Truncate(name, 40)))
}

// cmdDebate starts a debate with the command line's flags, offering to
// resume an unfinished debate on the same topic first (spec: "Resume Flow").
func (m *Model) cmdDebate(args []string) tea.Cmd {
	req, err := m.opts.ParseDebate(m.ctx, args)
	if err != nil {
		m.fail(err)
		return nil
	}
	if req.Help != "" {
		m.tr.add(&block{segs: []segment{{text: req.Help}}})
		return nil
	}
	if req.Resume != "" {
		id, err := m.resolveID(req.Resume)
		if err != nil {
			m.fail(err)
			return nil
		}
		for _, n := range req.Notes {
			m.say(dim, n)
		}
		return m.resume(id, req)
	}
	return m.offerResume(req)
}

// offerResume asks "Resume debate from Phase 2 (Bear Opening)? [Y/n]" when
// an unfinished debate asks the question the request asks (the same
// format, topic, options and models: app.App.Unfinished), and starts a new
// debate otherwise or on no. The plan, and the lookup, run off the event
// loop: a format's setup may read files or the network.
func (m *Model) offerResume(req *DebateRequest) tea.Cmd {
	a, ctx := m.app, m.ctx
	if !req.Start.Models.Given() && m.models.Given() {
		req.Start.Models = m.models
	}
	m.wait("Starting " + app.Truncate(clean(req.Start.Topic), 40) + "…")
	return func() tea.Msg {
		p, err := a.Plan(ctx, req.Start)
		if err != nil {
			return startedMsg{err: err}
		}
		found, err := a.Unfinished(ctx, p)
		if err != nil {
			return startedMsg{err: err}
		}
		var note string
		if found != nil {
			if where, ok := app.RunElsewhere(found.Status); ok {
				// Resuming it here would contend with its runner.
				note = fmt.Sprintf("A debate on %s is %s (%s; /show %s shows how far it got); this starts a new one.", clean(found.Topic), where, found.ID, found.ID)
				found = nil
			}
		}
		if found == nil {
			sess, err := a.StartPlan(ctx, p, nil)
			return startedMsg{sess: sess, docs: req.Docs, note: note, err: err}
		}
		phase, err := a.ResumePhase(ctx, found.ID)
		if err != nil {
			return startedMsg{err: err}
		}
		return resumeOfferMsg{req: req, plan: p, found: *found, phase: phase}
	}
}

// resumeOfferMsg is an unfinished debate that asks what a /debate asks.
type resumeOfferMsg struct {
	req   *DebateRequest
	plan  *app.Plan
	found debate.Summary
	phase string
}

// askResume asks whether to resume the unfinished debate found.
func (m *Model) askResume(msg resumeOfferMsg) {
	m.busy = ""
	prompt := fmt.Sprintf("Resume debate from %s? [Y/n]", msg.phase)
	m.say(plain, fmt.Sprintf("An unfinished debate on %s exists (%s). %s", oneLine(msg.found.Topic), msg.found.ID, prompt))
	var answer func(string) tea.Cmd
	answer = func(line string) tea.Cmd {
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "", "y", "yes":
			return m.resume(msg.found.ID, msg.req)
		case "n", "no":
			return m.start(msg.req, msg.plan)
		}
		m.askUser("Answer y or n. "+prompt, "y or n", answer)
		return nil
	}
	m.askUser(prompt, "Y (resume) or n (start a new debate)", answer)
}

// cmdResume resumes a debate: the one named, else the shell's current one
// when it is unfinished, else the latest unfinished.
func (m *Model) cmdResume(args []string) tea.Cmd {
	if len(args) > 1 {
		m.fail(errors.New("/resume takes at most one debate ID"))
		return nil
	}
	if len(args) == 1 {
		id, err := m.resolveID(args[0])
		if err != nil {
			m.fail(err)
			return nil
		}
		return m.resume(id, nil)
	}
	sums, err := m.app.Store.List(m.ctx, debate.ListFilter{})
	if err != nil {
		m.fail(err)
		return nil
	}
	var pick *debate.Summary
	for i, s := range sums {
		// A queued debate is not to resume: a worker runs it.
		st := s.Shown(m.now(), debate.OwnerAlive)
		if st == debate.StatusCompleted || st == debate.StatusRunning || st == debate.StatusQueued {
			continue
		}
		if pick == nil || s.ID == m.current {
			pick = &sums[i]
		}
	}
	if pick == nil {
		m.say(plain, "Nothing to resume: every debate has ended. /list shows them.")
		return nil
	}
	return m.resume(pick.ID, nil)
}

// resolveID turns a typed debate id, or a unique prefix of one, into the
// debate's id. app.ResolveID words a miss for the command line ("'parley
// list' shows the debates"): in the shell the list is /list.
func (m *Model) resolveID(typed string) (string, error) {
	if strings.TrimSpace(typed) == "" {
		return "", errors.New("give a debate ID (/list shows them)")
	}
	found, err := app.MatchIDs(m.ctx, m.app.Store, typed)
	if err != nil {
		return "", err
	}
	if len(found) == 0 {
		// What was typed may be anything pasted: the answer quotes its start.
		return "", fmt.Errorf("no debate %s: /list shows the debates", app.Truncate(clean(strings.TrimSpace(typed)), 40))
	}
	return app.ResolveID(m.ctx, m.app.Store, typed)
}

// load folds the debate a typed id names (see resolveID).
func (m *Model) load(typed string) (*debate.State, debate.Format, error) {
	id, err := m.resolveID(typed)
	if err != nil {
		return nil, nil, err
	}
	return m.app.Load(m.ctx, id)
}

// cmdDelete deletes a debate after asking, through app.Delete as 'parley
// delete' does: the shell's own running debate is refused here (Ctrl+C
// pauses it), one another runner holds by app.Delete.
func (m *Model) cmdDelete(args []string) {
	if len(args) != 1 {
		m.fail(errors.New("/delete ID: give one debate ID (/list shows them)"))
		return
	}
	id, err := m.resolveID(args[0])
	if err != nil {
		m.fail(err)
		return
	}
	if m.run != nil && m.run.id == id {
		m.fail(fmt.Errorf("/delete %s: the shell is running it; pause it first (Ctrl+C), then delete it", id))
		return
	}
	sum, err := m.app.Store.Get(m.ctx, id)
	if err != nil {
		m.fail(err)
		return
	}
	what := fmt.Sprintf("%s (%s, %s: %s)", id, sum.Format, sum.Shown(m.now(), debate.OwnerAlive), clean(app.Truncate(sum.Topic, 60)))
	m.askUser(fmt.Sprintf("Delete debate %s? Its log cannot be recovered. [y/N]", what), "y (delete) or n", func(line string) tea.Cmd {
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			m.say(dim, "Nothing deleted.")
			return nil
		}
		if _, err := m.app.Delete(m.ctx, id); err != nil {
			m.fail(err)
			return nil
		}
		delete(m.views, id)
		if m.current == id {
			m.current = ""
		}
		m.say(plain, "Deleted debate "+what+".")
		return nil
	})
}

// cmdList lists the debates.
func (m *Model) cmdList(args []string) {
	if len(args) != 0 {
		// /list has no filters: an argument meant as one would be ignored
		// silently, and the list taken for a filtered one.
		m.fail(fmt.Errorf("/list takes no arguments (given %q): it lists the latest debates; /show ID shows one", strings.Join(args, " ")))
		return
	}
	sums, err := m.app.List(m.ctx, app.ListFilter{Limit: 20})
	if err != nil {
		m.fail(err)
		return
	}
	if len(sums) == 0 {
		m.say(plain, "No debates yet. Start one: /debate NVDA --offline, or \"Give me both sides of NVDA\".")
		return
	}
	// Newest first, by creation, as the time column shows (see 'parley
	// list').
	rows := [][]string{{"ID", "FORMAT", "STATUS", "COST", "CREATED", "TOPIC"}}
	var spent []report.Spend
	for _, s := range sums {
		sp := report.SummarySpend(s)
		spent = append(spent, sp)
		rows = append(rows, []string{s.ID, s.Format, string(s.Status), sp.Cell(),
			s.Created.In(m.loc).Format("2006-01-02 15:04"), app.Truncate(clean(s.Topic), 60)})
	}
	// A window too narrow for every column with room for the topic
	// leaves out the time, then the cost, then the format: the id, the
	// status and the topic are what a row is read for.
	text := table(rows, m.width, 4, 3, 1)
	// The cells say "unknown" or "≥" without naming the models (they
	// would make the table wrap): the note names them once, under it.
	if note := report.TableNote(spent); note != "" {
		text += "\n" + note
	}
	// What to do next, where the status does not say: a queued debate
	// needs a worker, not /resume (which would run it in this shell).
	var queued, interrupted bool
	for _, s := range sums {
		queued = queued || s.Status == debate.StatusQueued
		interrupted = interrupted || s.Status == debate.StatusInterrupted
	}
	if queued {
		text += "\n" + queuedHint
	}
	if interrupted {
		text += "\nInterrupted debates lost their runner: /resume ID goes on with one."
	}
	m.tr.add(&block{segs: []segment{{meta: true, class: plain, text: text}}})
}

// queuedHint is what to do about queued debates.
const queuedHint = "Queued debates wait for a worker, which runs them: if none runs, start one (parley worker, on this database)."

// table lines up columns. The last is cut, by display width (a CJK
// character takes two cells), to the room the window leaves it, so that a
// row does not wrap under the first column; it keeps at least
// minLastColumn cells. Where that does not fit, the columns of drop (their
// indexes, never the last) are left out in that order until it does; a
// window too narrow even then wraps.
func table(rows [][]string, width int, drop ...int) string {
	keep := make([]bool, len(rows[0]))
	for i := range keep {
		keep[i] = true
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r[:len(r)-1] {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	used := func() int {
		n := 0
		for i, w := range widths[:len(widths)-1] {
			if keep[i] {
				n += w + 2
			}
		}
		return n
	}
	for _, i := range drop {
		if used()+minLastColumn <= width {
			break
		}
		if i >= 0 && i < len(keep)-1 {
			keep[i] = false
		}
	}
	room := max(width-used(), minLastColumn)
	if slices.Contains(keep, false) {
		for n, r := range rows {
			var kept []string
			for i, c := range r {
				if keep[i] {
					kept = append(kept, c)
				}
			}
			rows[n] = kept
		}
		var w []int
		for i, x := range widths {
			if keep[i] {
				w = append(w, x)
			}
		}
		widths = w
	}
	for _, r := range rows {
		r[len(r)-1] = ansi.Truncate(r[len(r)-1], room, "…")
	}
	var b strings.Builder
	for n, r := range rows {
		if n > 0 {
			b.WriteString("\n")
		}
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-ansi.StringWidth(c)+2))
			}
		}
	}
	return b.String()
}

// minLastColumn is the fewest cells table leaves its last column.
const minLastColumn = 10

// cmdShow shows a debate's document; the debate becomes the shell's
// current one (for /ask and /cost).
func (m *Model) cmdShow(args []string) {
	if len(args) != 1 {
		m.fail(errors.New("/show ID: give one debate ID (/list shows them)"))
		return
	}
	st, format, err := m.load(args[0])
	if err != nil {
		m.fail(err)
		return
	}
	doc, err := app.RenderDoc(format, m.app.AsShown(m.ctx, st), false)
	if err != nil {
		m.fail(err)
		return
	}
	m.current = st.ID
	if _, err := m.view(st.ID, format, describer(format), true); err == nil {
		m.reload(st.ID) // follow-ups may have been added since
	}
	// A debate another process has (a worker, a terminal) would refuse a
	// resume: the shell names that process instead of offering one.
	sd := m.app.Standing(m.ctx, st)
	m.say(dim, fmt.Sprintf("%s · %s · %s · created %s", st.ID, st.Format, sd.Status, st.Created.In(m.loc).Format("2006-01-02 15:04")))
	m.tr.add(&block{segs: []segment{{text: prose(doc)}}, markdown: true})
	switch l := sd.Held; {
	case l != nil && st.Status == debate.StatusCheckpoint:
		m.say(dim, fmt.Sprintf("Waiting at a checkpoint in process %d on host %s (since %s): answer it there.",
			l.Owner.PID, clean(l.Owner.Host), l.Since.In(m.loc).Format("15:04")))
	case l != nil:
		m.say(dim, fmt.Sprintf("Running in process %d on host %s (since %s): /show %s again shows how far it got.",
			l.Owner.PID, clean(l.Owner.Host), l.Since.In(m.loc).Format("15:04"), st.ID))
	case sd.Shown == debate.StatusQueued:
		m.say(dim, "Queued for a worker, which runs it: if none runs, start one (parley worker, on this database); /show "+st.ID+" again shows how far it got.")
	case st.Status != debate.StatusCompleted:
		m.say(dim, "/resume "+st.ID+" goes on with it.")
	}
}

func describer(format debate.Format) func(*debate.Turn) string {
	if d, ok := format.(interface{ Describe(*debate.Turn) string }); ok {
		return d.Describe
	}
	return nil
}

// outPath is where /export writes: -o as a shell would read it, with ~
// for the home directory (the shell's words reach no other shell to expand
// it, and a directory named "~" would be made), and a directory (one that
// exists, or "exports/") meaning the file name in it; name, in the current
// directory, without -o.
func (m *Model) outPath(out, name string) string {
	if out == "" {
		return name
	}
	// Read before ~ is expanded: the join drops a trailing separator,
	// which names a directory that does not exist yet ("exports/").
	dir := app.NamesDir(out)
	if out == "~" || strings.HasPrefix(out, "~/") {
		home := ""
		if m.app.Env.Getenv != nil {
			home = m.app.Env.Getenv("HOME")
		}
		if home == "" {
			home, _ = os.UserHomeDir()
		}
		if home != "" {
			out = filepath.Join(home, strings.TrimPrefix(out, "~"))
		}
	}
	if dir || app.NamesDir(out) {
		out = filepath.Join(out, name)
	}
	return out
}

// cmdExport writes a debate's document to a file.
func (m *Model) cmdExport(args []string) tea.Cmd {
	var id, as, out string
	summary, force := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--as" || a == "-o" || a == "--output":
			if i+1 >= len(args) {
				m.fail(fmt.Errorf("/export: %s needs a value", a))
				return nil
			}
			i++
			if a == "--as" {
				as = args[i]
			} else {
				out = args[i]
			}
		case strings.HasPrefix(a, "--as="):
			as = strings.TrimPrefix(a, "--as=")
		case a == "--summary":
			summary = true
		case a == "--force":
			force = true
		case a == "--full":
		case strings.HasPrefix(a, "-"):
			m.fail(fmt.Errorf("/export: unknown flag %s; use --as md|json|pdf, -o FILE, --summary, --force", a))
			return nil
		case id == "":
			id = a
		default:
			m.fail(fmt.Errorf("/export takes one debate ID, got %q too", a))
			return nil
		}
	}
	if out == "-" {
		// Standard output for 'parley export', which the shell's screen
		// is not: it wrote a file named "-" in the current directory.
		m.fail(errors.New("/export: -o - is standard output, which the shell draws on: give a file's name (or run 'parley export ID -o -' outside the shell)"))
		return nil
	}
	if id == "" {
		id = m.current
	}
	if id == "" {
		m.fail(errors.New("/export ID --as md|json|pdf: give a debate ID (/list shows them)"))
		return nil
	}
	if as == "" {
		as = strings.TrimPrefix(strings.ToLower(filepath.Ext(out)), ".")
		if as == "" || as == "markdown" {
			as = "md"
		}
	}
	if as != "md" && as != "json" && as != "pdf" {
		m.fail(fmt.Errorf("/export --as %q: choose md, json or pdf", as))
		return nil
	}
	st, format, err := m.load(id)
	if err != nil {
		m.fail(err)
		return nil
	}
	out = m.outPath(out, st.ID+"."+as)
	st = m.app.AsShown(m.ctx, st)
	m.wait("Writing " + out + "…")
	return func() tea.Msg {
		data, err := app.Export(format, st, as, summary)
		if err == nil {
			err = app.WriteExport(out, data, force)
		}
		if errors.Is(err, app.ErrFileExists) {
			return doneMsg{err: fmt.Errorf("export %s: %s exists: add --force to replace it, or give another -o", st.ID, out)}
		}
		if err != nil {
			return doneMsg{err: fmt.Errorf("export %s: %w", st.ID, err)}
		}
		abs, _ := filepath.Abs(out)
		return doneMsg{text: fmt.Sprintf("Wrote %s (%s).", abs, as)}
	}
}

// doneMsg reports work done in the background.
type doneMsg struct {
	text string
	err  error
}

// cmdCost shows what a debate cost, per agent: the one named, else the
// shell's current one.
func (m *Model) cmdCost(args []string) {
	if len(args) > 1 {
		m.fail(errors.New("/cost [ID]: at most one debate ID"))
		return
	}
	if len(args) == 1 {
		st, format, err := m.load(args[0])
		if err != nil {
			m.fail(err)
			return
		}
		if _, err := m.view(st.ID, format, describer(format), true); err != nil {
			m.fail(err)
			return
		}
		m.current = st.ID
	}
	m.reload(m.current)
	v := m.views[m.current]
	if v == nil {
		m.say(plain, "No debate yet: /cost shows the cost of the debate the shell is on (/cost ID for another).")
		return
	}
	var b strings.Builder
	report.UsageTable(&b, v.state, "**Tokens and cost of "+v.state.ID+"**", report.AgentNamer(v.state))
	m.tr.add(&block{segs: []segment{{text: b.String()}}, markdown: true})
}

// cmdModel shows or sets the model of the debates the shell starts.
func (m *Model) cmdModel(args []string) {
	switch {
	case len(args) == 1 && args[0] == "default":
		m.models = app.Models{}
	case len(args) == 1:
		mf := app.Models{Model: args[0]}
		if p, name, ok := strings.Cut(args[0], "/"); ok {
			// "openai/" or "/gpt-4.1" names half a model: taken as given,
			// it would choose the provider's default model, or any
			// provider's, with no word said.
			if p == "" || name == "" {
				m.fail(fmt.Errorf("/model %s: give PROVIDER/NAME (such as openai/gpt-4.1) or NAME alone", args[0]))
				return
			}
			// Named here as /model's, not as a --provider flag.
			if err := app.CheckProvider("provider", strings.ToLower(p)); err != nil {
				m.fail(&setup.ConfigError{Err: fmt.Errorf("/model %s: %w", args[0], err)})
				return
			}
			mf = app.Models{Provider: p, Model: name}
		}
		if _, _, err := app.ResolveCast(mf, m.app.Env.Getenv); err != nil {
			m.fail(&setup.ConfigError{Err: err})
			return
		}
		m.models = mf
	case len(args) > 1:
		m.fail(errors.New("/model [PROVIDER/]NAME, or /model default"))
		return
	}
	_, record, err := app.ResolveCast(m.models, m.app.Env.Getenv)
	switch {
	case err != nil:
		m.fail(&setup.ConfigError{Err: err})
	case len(record) == 0:
		m.say(plain, "New debates: no model is configured; bullbear debates run with Parley's data-only agents. /model [PROVIDER/]NAME chooses one (ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_BASE_URL or OLLAMA_HOST give the provider).")
	default:
		// DescribeCast says "Models: …", which after "New debates:" would
		// name the list twice.
		m.say(plain, "New debates: "+strings.TrimPrefix(app.DescribeCast(record, nil), "Models: "))
	}
	if v := m.views[m.current]; v != nil && v.state.ID != "" {
		m.say(dim, v.state.ID+": "+app.DescribeCast(v.state.Models, nil))
	}
}

// cmdHelp lists the commands, the triggers and the keys.
func (m *Model) cmdHelp(args []string) {
	var b strings.Builder
	if len(args) > 0 {
		// /help CMD: that command's line, with or without its slash.
		name := strings.ToLower(strings.TrimPrefix(args[0], "/"))
		for _, c := range commands {
			if c.name == name {
				fmt.Fprintf(&b, "/%s %s\n    %s", c.name, c.args, c.help)
				if name == "debate" {
					b.WriteString("\n    /debate --help lists its flags.")
				}
				m.say(plain, b.String())
				return
			}
		}
		m.fail(fmt.Errorf("/help %s: no such command; /help lists the commands", args[0]))
		return
	}
	for _, c := range commands {
		fmt.Fprintf(&b, "/%s %s\n    %s\n", c.name, c.args, c.help)
	}
	b.WriteString(`
In words: "Give me both sides of NVDA", "What's the bull and bear case for Tesla?", "Debate AMD", "bull vs bear for apple".
While a debate runs: AGENT: TEXT queues a hint for that agent's next turn ("bull: mention the new AI chip", "both: …").
Keys: Tab completes commands, flags, formats, tickers, agents and ids; Up/Down recall earlier lines; PgUp/PgDn and the mouse wheel scroll; Ctrl+C pauses the running debate (twice at the prompt to leave); Ctrl+Z suspends the shell (fg resumes it); Ctrl+D leaves.`)
	m.say(plain, b.String())
}

// handle handles the shell's own messages.
func (m *Model) handle(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case startedMsg:
		return m.started(msg)
	case resumeOfferMsg:
		m.askResume(msg)
	case eventMsg:
		return m.event(msg)
	case runDoneMsg:
		return m.runDone(msg)
	case subEndMsg:
		if m.run != nil && m.run.id == msg.id && m.run.result != nil {
			return m.finish()
		}
	case hintMsg:
		if msg.err != nil {
			if errors.Is(msg.err, debate.ErrNotRunning) {
				m.setBelow("Hint not queued: the debate is not running any more.")
			} else {
				m.setBelow("Hint not queued: " + msg.err.Error())
			}
		}
	case checkpointMsg:
		m.check = &checkpoint{c: msg.c, reply: msg.reply}
		m.setBelow(m.pendingPrompt())
	case doneMsg:
		m.busy = ""
		if msg.err != nil {
			m.fail(msg.err)
		} else {
			m.say(plain, msg.text)
		}
	case askReadyMsg:
		return m.askReady(msg)
	case askDeltaMsg:
		if m.ask != nil && m.ask.block != nil {
			m.ask.block.write(clean(msg.text))
		}
	case askDoneMsg:
		return m.askDone(msg)
	case goPanicMsg:
		// Panicked again here, where Bubble Tea recovers it and restores
		// the terminal (see guard).
		panic(fmt.Sprintf("%v\n\nin a goroutine of the shell:\n%s", msg.value, msg.stack))
	case companiesMsg:
		return m.companies(msg)
	}
	return nil
}

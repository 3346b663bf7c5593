package llm

import (
	"fmt"
	"strings"
	"time"
)

// Usage sums model calls: how many, their tokens and their latency. It is
// the one usage type of phoneflow: an Answer reports one call as a Usage,
// and todos, goals and schedules add them up (docs/design.md §9).
type Usage struct {
	Calls        int `json:"calls"`
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// CachedTokens are input tokens the endpoint served from its prompt
	// cache, where the API reports them (a part of InputTokens).
	CachedTokens int   `json:"cached_tokens,omitempty"`
	LatencyMS    int64 `json:"latency_ms"`
}

// Add returns u plus v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		Calls:        u.Calls + v.Calls,
		InputTokens:  u.InputTokens + v.InputTokens,
		OutputTokens: u.OutputTokens + v.OutputTokens,
		CachedTokens: u.CachedTokens + v.CachedTokens,
		LatencyMS:    u.LatencyMS + v.LatencyMS,
	}
}

// IsZero reports whether u records no call.
func (u Usage) IsZero() bool { return u == Usage{} }

// String is a one-line summary: "3 calls, 1200 in (100 cached) / 80 out tokens, 2.1s".
func (u Usage) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d call", u.Calls)
	if u.Calls != 1 {
		b.WriteString("s")
	}
	fmt.Fprintf(&b, ", %d in", u.InputTokens)
	if u.CachedTokens > 0 {
		fmt.Fprintf(&b, " (%d cached)", u.CachedTokens)
	}
	fmt.Fprintf(&b, " / %d out tokens, %s", u.OutputTokens, (time.Duration(u.LatencyMS) * time.Millisecond).Round(100*time.Millisecond))
	return b.String()
}

// Usage is the answer's call as a Usage.
func (a *Answer) Usage() Usage {
	if a == nil {
		return Usage{}
	}
	return Usage{Calls: 1, InputTokens: a.PromptTokens, OutputTokens: a.CompletionTokens,
		CachedTokens: a.CachedTokens, LatencyMS: a.Total.Milliseconds()}
}

// RoleUsage is usage by model role, with the steps replayed without a
// model call and the commits refused because their effect was already
// made (docs/design.md §9).
type RoleUsage struct {
	Planner       Usage `json:"planner"`
	Executor      Usage `json:"executor"`
	ReplayedSteps int   `json:"replayed_steps,omitempty"`
	// RefusedCommits counts commit actions the Step did not send because
	// the screen contradicted the todo or their effect was already on the
	// phone (docs/design.md §9).
	RefusedCommits int `json:"refused_commits,omitempty"`
}

// Add returns r plus s.
func (r RoleUsage) Add(s RoleUsage) RoleUsage {
	return RoleUsage{Planner: r.Planner.Add(s.Planner), Executor: r.Executor.Add(s.Executor),
		ReplayedSteps: r.ReplayedSteps + s.ReplayedSteps, RefusedCommits: r.RefusedCommits + s.RefusedCommits}
}

// Total is both roles together.
func (r RoleUsage) Total() Usage { return r.Planner.Add(r.Executor) }

// IsZero reports whether r records nothing.
func (r RoleUsage) IsZero() bool { return r == RoleUsage{} }

// Price is what a model costs per million tokens, in any one currency.
type Price struct {
	Input  float64 // per million uncached input tokens
	Cached float64 // per million cached input tokens; 0 = the input price
	Output float64 // per million output tokens
}

// IsZero reports whether no price is set.
func (p Price) IsZero() bool { return p == Price{} }

// Cost estimates what u cost at p.
func (p Price) Cost(u Usage) float64 {
	cached := p.Cached
	if cached == 0 {
		cached = p.Input
	}
	in := float64(u.InputTokens - u.CachedTokens)
	return (in*p.Input + float64(u.CachedTokens)*cached + float64(u.OutputTokens)*p.Output) / 1e6
}

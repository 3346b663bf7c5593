package llm

import (
	"context"
	"sort"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

// Tool is a function the model may call natively (OpenAI tool calls).
type Tool struct {
	Name        string
	Description string
	Parameters  map[string]any // JSON Schema of the arguments object
}

// ToolCall is one function call of an answer, its arguments as the JSON
// text the model wrote.
type ToolCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type toolsKey struct{}

// WithTools returns a context under which Chat offers the model these
// tools and returns their calls in Answer.ToolCalls. Without it, an
// answer that holds only tool calls is a permanent error: the request's
// protocol reads text.
func WithTools(ctx context.Context, tools []Tool) context.Context {
	return context.WithValue(ctx, toolsKey{}, tools)
}

func toolsFrom(ctx context.Context) ([]Tool, bool) {
	t, ok := ctx.Value(toolsKey{}).([]Tool)
	return t, ok
}

type lowerKey struct{}

// WithLowerMaxTokens returns a context under which Chat asks for half the
// configured max tokens (at least MinLoweredMaxTokens): the retry after an
// answer the limit cut off, so a model caught in a loop is stopped sooner.
func WithLowerMaxTokens(ctx context.Context) context.Context {
	return context.WithValue(ctx, lowerKey{}, true)
}

// MinLoweredMaxTokens is the floor of WithLowerMaxTokens, and its value
// when no max tokens are configured.
const MinLoweredMaxTokens = 1024

// LoweredMaxTokens is the max tokens WithLowerMaxTokens asks for when
// configured is set (0 = the endpoint's default).
func LoweredMaxTokens(configured int) int {
	return max(configured/2, MinLoweredMaxTokens)
}

// LowersMaxTokens reports whether ctx comes from WithLowerMaxTokens.
func LowersMaxTokens(ctx context.Context) bool {
	v, _ := ctx.Value(lowerKey{}).(bool)
	return v
}

func setTools(p *openai.ChatCompletionNewParams, tools []Tool) {
	for _, t := range tools {
		fd := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(t.Parameters)}
		if t.Description != "" {
			fd.Description = openai.String(t.Description)
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(fd))
	}
}

// toolCallsNotRead is the error for an answer of native tool calls to a
// request that offered none.
func (c *Client) toolCallsNotRead(calls []ToolCall) error {
	names := map[string]bool{}
	for _, tc := range calls {
		names[tc.Name] = true
	}
	var list []string
	for n := range names {
		list = append(list, n)
	}
	sort.Strings(list)
	return &Error{Kind: Permanent, Endpoint: c.cfg.Endpoint(), Msg: "model " + quoteName(c.cfg.Model) +
		" answered with native tool calls (" + strings.Join(list, ", ") + ") and no text: the configured executor protocol reads text answers, not tool calls; set executor.protocol: tools for a model that acts through function calls"}
}

func quoteName(s string) string { return `"` + s + `"` }

// streamedCalls assembles the tool calls of a streamed answer from their
// deltas, by index.
type streamedCalls struct {
	calls []ToolCall
	index map[int64]int
}

func (s *streamedCalls) add(d openai.ChatCompletionChunkChoiceDeltaToolCall) {
	if s.index == nil {
		s.index = map[int64]int{}
	}
	i, ok := s.index[d.Index]
	if !ok {
		i = len(s.calls)
		s.index[d.Index] = i
		s.calls = append(s.calls, ToolCall{})
	}
	s.calls[i].Name += d.Function.Name
	s.calls[i].Arguments += d.Function.Arguments
}

package llm

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/respjson"
)

// Message roles.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Image is an image part of a user message, sent as a data URL.
type Image struct {
	MIME string // image/jpeg or image/png
	Data []byte
}

// DataURL returns the image as data:<mime>;base64,<data>.
func (im Image) DataURL() string {
	return "data:" + im.MIME + ";base64," + base64.StdEncoding.EncodeToString(im.Data)
}

// Message is one chat message. Images are only sent on user messages.
type Message struct {
	Role   string  `json:"role"`
	Text   string  `json:"text"`
	Images []Image `json:"images,omitempty"`
	// ImagesFirst puts the image parts before the text part, as the
	// AutoGLM-Phone layout does; by default the text comes first.
	ImagesFirst bool `json:"images_first,omitempty"`
}

// Answer is a model's reply with its timings and token usage.
type Answer struct {
	Text             string        // the full answer; reasoning sent separately by the server is wrapped in <think>…</think>
	Model            string        // model id the server reported
	TTFT             time.Duration // time to the first answer token (streaming) or to the whole answer
	ThinkEnd         time.Duration // time at which </think> first appeared; 0 if it never did
	Total            time.Duration // time to the end of the answer
	PromptTokens     int
	CompletionTokens int
	CachedTokens     int // prompt tokens served from the endpoint's cache, where reported
	Streamed         bool
	FinishReason     string // "stop", or "length" when max tokens cut the answer off
	// ToolCalls are the answer's native function calls, read only under
	// WithTools.
	ToolCalls []ToolCall
	// ResponseFormat is the format a JSON request was answered in
	// (FormatJSONSchema, FormatJSONObject or FormatPlain); empty for other
	// requests.
	ResponseFormat string
}

// Client talks to one OpenAI-compatible endpoint. It is safe for concurrent use.
type Client struct {
	cfg Config
	oc  openai.Client
}

// New returns a client for cfg. Call cfg.Validate first; New does not check
// it. The SDK's own retries are off: the caller decides about retries
// (see IsRetryable and RetryAfter).
func New(cfg Config) *Client {
	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL),
		option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(0),
	}
	return &Client{cfg: cfg, oc: openai.NewClient(opts...)}
}

// Model returns the configured model id.
func (c *Client) Model() string { return c.cfg.Model }

// Endpoint returns the chat completions URL, without credentials.
func (c *Client) Endpoint() string { return c.cfg.Endpoint() }

// String describes the client with the API key redacted.
func (c *Client) String() string {
	return fmt.Sprintf("llm.Client{endpoint=%s model=%s key=%s stream=%t}", c.cfg.Endpoint(), c.cfg.Model, maskKey(c.cfg.APIKey), c.cfg.Stream)
}

// LogValue keeps slog from printing the key.
func (c *Client) LogValue() slog.Value { return c.cfg.LogValue() }

func (c *Client) params(ctx context.Context, msgs []Message) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{
		Model:       c.cfg.Model,
		Temperature: openai.Float(c.cfg.Temperature),
	}
	if c.cfg.TopP > 0 {
		p.TopP = openai.Float(c.cfg.TopP)
	}
	if c.cfg.FrequencyPenalty != 0 {
		p.FrequencyPenalty = openai.Float(c.cfg.FrequencyPenalty)
	}
	if c.cfg.MaxTokens > 0 {
		p.MaxTokens = openai.Int(int64(c.cfg.MaxTokens))
	}
	if LowersMaxTokens(ctx) {
		p.MaxTokens = openai.Int(int64(LoweredMaxTokens(c.cfg.MaxTokens)))
	}
	if tools, ok := toolsFrom(ctx); ok {
		setTools(&p, tools)
	}
	for i, m := range msgs {
		switch m.Role {
		case RoleSystem:
			p.Messages = append(p.Messages, openai.SystemMessage(m.Text))
		case RoleAssistant:
			p.Messages = append(p.Messages, openai.AssistantMessage(m.Text))
		case RoleUser:
			if len(m.Images) == 0 {
				p.Messages = append(p.Messages, openai.UserMessage(m.Text))
				continue
			}
			var parts []openai.ChatCompletionContentPartUnionParam
			if !m.ImagesFirst {
				parts = append(parts, openai.TextContentPart(m.Text))
			}
			for _, im := range m.Images {
				parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: im.DataURL()}))
			}
			if m.ImagesFirst {
				parts = append(parts, openai.TextContentPart(m.Text))
			}
			p.Messages = append(p.Messages, openai.UserMessage(parts))
		default:
			return p, fmt.Errorf("message %d has role %q: use %q, %q or %q", i, m.Role, RoleSystem, RoleUser, RoleAssistant)
		}
		if len(m.Images) > 0 && m.Role != RoleUser {
			return p, fmt.Errorf("message %d (%s) carries images: only user messages may", i, m.Role)
		}
	}
	if c.cfg.Stream {
		p.StreamOptions.IncludeUsage = openai.Bool(true)
	}
	return p, nil
}

// Models lists the model ids the endpoint serves (GET <base URL>/models).
// Failures are *Error values; a 404 means the endpoint does not offer the
// list.
func (c *Client) Models(parent context.Context) ([]string, error) {
	ctx := parent
	if c.cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.cfg.Timeout)
		defer cancel()
	}
	page, err := c.oc.Models.List(ctx)
	if err != nil {
		return nil, c.classify(parent, err)
	}
	var ids []string
	for _, m := range page.Data {
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// Chat sends msgs and returns the answer. Failures are *Error values (see
// IsRetryable); if ctx ends first the context error is returned wrapped.
// Under a context from WithJSON it asks for a JSON answer in the best
// response format the endpoint accepts: json_schema, then json_object,
// then none, stepping down when the endpoint refuses one and remembering
// what worked (Format); Answer.ResponseFormat says which was used.
func (c *Client) Chat(ctx context.Context, msgs []Message) (*Answer, error) {
	p, err := c.params(ctx, msgs)
	if err != nil {
		return nil, &Error{Kind: Permanent, Endpoint: c.cfg.Endpoint(), Msg: "bad request: " + err.Error(), err: err}
	}
	schema, wantJSON := jsonFrom(ctx)
	format := ""
	if wantJSON {
		format = c.Format()
	}
	for {
		if wantJSON {
			setFormat(&p, format, schema)
		}
		ans, err := c.send(ctx, p)
		if err != nil && wantJSON && format != FormatPlain && formatRefused(err) && ctx.Err() == nil {
			slog.Debug("llm endpoint refused the response format; trying the next", "endpoint", c.cfg.Endpoint(), "model", c.cfg.Model, "format", format)
			format = nextFormat(format)
			continue
		}
		if err != nil {
			return nil, c.classify(ctx, err)
		}
		if wantJSON {
			formatMemory.Store(c.formatKey(), format)
			ans.ResponseFormat = format
		}
		if _, offered := toolsFrom(ctx); len(ans.ToolCalls) > 0 && !offered && strings.TrimSpace(ans.Text) == "" {
			return nil, c.toolCallsNotRead(ans.ToolCalls)
		}
		if _, offered := toolsFrom(ctx); offered && len(ans.ToolCalls) > 0 {
			return ans, nil
		}
		if strings.TrimSpace(ans.Text) == "" {
			return nil, &Error{Kind: Retryable, Endpoint: c.cfg.Endpoint(), Msg: fmt.Sprintf("model %q returned an empty answer: retry; if it persists check max tokens and the prompt", c.cfg.Model)}
		}
		slog.Debug("llm answer", "endpoint", c.cfg.Endpoint(), "model", ans.Model, "ttft", ans.TTFT,
			"think_end", ans.ThinkEnd, "total", ans.Total, "prompt_tokens", ans.PromptTokens,
			"completion_tokens", ans.CompletionTokens, "streamed", ans.Streamed, "response_format", ans.ResponseFormat)
		return ans, nil
	}
}

// send makes one request under the configured timeout.
func (c *Client) send(ctx context.Context, p openai.ChatCompletionNewParams) (*Answer, error) {
	if c.cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.cfg.Timeout)
		defer cancel()
	}
	start := time.Now()
	if c.cfg.Stream {
		return c.stream(ctx, p, start)
	}
	return c.once(ctx, p, start)
}

func (c *Client) once(ctx context.Context, p openai.ChatCompletionNewParams, start time.Time) (*Answer, error) {
	res, err := c.oc.Chat.Completions.New(ctx, p)
	if err != nil {
		return nil, err
	}
	total := time.Since(start)
	ans := &Answer{Model: res.Model, TTFT: total, Total: total,
		PromptTokens: int(res.Usage.PromptTokens), CompletionTokens: int(res.Usage.CompletionTokens),
		CachedTokens: int(res.Usage.PromptTokensDetails.CachedTokens)}
	if len(res.Choices) > 0 {
		ans.FinishReason = res.Choices[0].FinishReason
		msg := res.Choices[0].Message
		ans.Text = withReasoning(extraString(msg.JSON.ExtraFields, "reasoning_content"), msg.Content)
		for _, tc := range msg.ToolCalls {
			ans.ToolCalls = append(ans.ToolCalls, ToolCall{Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
	}
	if strings.Contains(ans.Text, "</think>") {
		ans.ThinkEnd = total
	}
	return ans, nil
}

func (c *Client) stream(ctx context.Context, p openai.ChatCompletionNewParams, start time.Time) (*Answer, error) {
	s := c.oc.Chat.Completions.NewStreaming(ctx, p)
	defer s.Close()
	ans := &Answer{Streamed: true}
	var text, reasoning strings.Builder
	var calls streamedCalls
	for s.Next() {
		ch := s.Current()
		if ch.Model != "" {
			ans.Model = ch.Model
		}
		if ch.JSON.Usage.Valid() && (ch.Usage.PromptTokens > 0 || ch.Usage.CompletionTokens > 0) {
			ans.PromptTokens = int(ch.Usage.PromptTokens)
			ans.CompletionTokens = int(ch.Usage.CompletionTokens)
			ans.CachedTokens = int(ch.Usage.PromptTokensDetails.CachedTokens)
		}
		for _, choice := range ch.Choices {
			if choice.Index != 0 {
				continue
			}
			if choice.FinishReason != "" {
				ans.FinishReason = choice.FinishReason
			}
			for _, tc := range choice.Delta.ToolCalls {
				calls.add(tc)
			}
			r := extraString(choice.Delta.JSON.ExtraFields, "reasoning_content")
			d := choice.Delta.Content
			if (r != "" || d != "") && ans.TTFT == 0 {
				ans.TTFT = time.Since(start)
			}
			reasoning.WriteString(r)
			if d == "" {
				continue
			}
			// Reasoning sent in its own field ends when the answer starts.
			if reasoning.Len() > 0 && text.Len() == 0 && ans.ThinkEnd == 0 {
				ans.ThinkEnd = time.Since(start)
			}
			before := text.Len()
			text.WriteString(d)
			if ans.ThinkEnd == 0 {
				// Look only where the new delta could complete the tag.
				from := max(before-len("</think>"), 0)
				if strings.Contains(text.String()[from:], "</think>") {
					ans.ThinkEnd = time.Since(start)
				}
			}
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	ans.Total = time.Since(start)
	if ans.TTFT == 0 {
		ans.TTFT = ans.Total
	}
	ans.Text = withReasoning(reasoning.String(), text.String())
	ans.ToolCalls = calls.calls
	return ans, nil
}

// withReasoning puts reasoning that a server returned in a separate field
// back in front of the answer as <think>…</think>, so parsers see one text.
func withReasoning(reasoning, content string) string {
	if strings.TrimSpace(reasoning) == "" || strings.Contains(content, "</think>") {
		return content
	}
	return "<think>" + reasoning + "</think>" + content
}

// extraString decodes a string field the SDK did not model (e.g. the
// reasoning_content of vLLM and GLM servers).
func extraString(extra map[string]respjson.Field, key string) string {
	f, ok := extra[key]
	if !ok {
		return ""
	}
	var s string
	if err := json.Unmarshal([]byte(f.Raw()), &s); err != nil {
		return ""
	}
	return s
}

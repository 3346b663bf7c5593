package modelserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	_ "image/jpeg" // sizes of the screenshots sent
	_ "image/png"
	"strings"
)

// chatRequest is the part of an OpenAI chat completion request the server
// reads. Unknown fields (temperature, top_p, ...) are accepted and ignored.
type chatRequest struct {
	Model         string         `json:"model"`
	Messages      []chatMessage  `json:"messages"`
	Stream        bool           `json:"stream"`
	StreamOptions *streamOptions `json:"stream_options,omitempty"`
	// ResponseFormat asks for JSON answers (see format.go).
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
	// Tools offered as functions: the executor then answers with a tool
	// call (toolcall.go).
	Tools json.RawMessage `json:"tools,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// chatMessage is one request message. Content is either a JSON string or
// an array of parts; decode it with parts.
type chatMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// contentPart is one element of an array-valued message content.
type contentPart struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	ImageURL *struct {
		URL string `json:"url"`
	} `json:"image_url,omitempty"`
}

// message is a decoded request message: its role, its text parts joined
// with newlines, and how many image parts it carried.
type message struct {
	Role   string
	Text   string
	Images int
	// ImageW and ImageH are the size of the first image, when it is a
	// data URL of a PNG or JPEG (0 otherwise): the frame of answers in
	// pixels of the image the model saw (grammar.go).
	ImageW, ImageH int
}

// decodeMessages turns the raw request messages into text plus image
// counts, rejecting content that is neither a string nor an array of parts.
func decodeMessages(in []chatMessage) ([]message, error) {
	out := make([]message, 0, len(in))
	for i, m := range in {
		msg := message{Role: m.Role}
		raw := bytes.TrimSpace(m.Content)
		switch {
		case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
		case raw[0] == '"':
			if err := json.Unmarshal(raw, &msg.Text); err != nil {
				return nil, fmt.Errorf("messages[%d].content: %v", i, err)
			}
		case raw[0] == '[':
			var parts []contentPart
			if err := json.Unmarshal(raw, &parts); err != nil {
				return nil, fmt.Errorf("messages[%d].content: want a string or an array of parts: %v", i, err)
			}
			var texts []string
			for j, p := range parts {
				switch p.Type {
				case "text":
					texts = append(texts, p.Text)
				case "image_url":
					if p.ImageURL == nil || p.ImageURL.URL == "" {
						return nil, fmt.Errorf("messages[%d].content[%d]: image_url part without a url", i, j)
					}
					if msg.Images == 0 {
						msg.ImageW, msg.ImageH = imageSize(p.ImageURL.URL)
					}
					msg.Images++
				default:
					return nil, fmt.Errorf("messages[%d].content[%d]: unsupported part type %q (use \"text\" or \"image_url\")", i, j, p.Type)
				}
			}
			msg.Text = strings.Join(texts, "\n")
		default:
			return nil, fmt.Errorf("messages[%d].content: want a string or an array of parts", i)
		}
		out = append(out, msg)
	}
	return out, nil
}

type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

type completion struct {
	ID      string             `json:"id"`
	Object  string             `json:"object"`
	Created int64              `json:"created"`
	Model   string             `json:"model"`
	Choices []completionChoice `json:"choices"`
	Usage   *usage             `json:"usage,omitempty"`
}

type completionChoice struct {
	Index        int             `json:"index"`
	Message      completionMsg   `json:"message"`
	FinishReason string          `json:"finish_reason"`
	Logprobs     json.RawMessage `json:"logprobs"`
}

type completionMsg struct {
	Role      string     `json:"role"`
	Content   string     `json:"content"`
	ToolCalls []toolCall `json:"tool_calls,omitempty"`
}

type chunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []chunkChoice `json:"choices"`
	Usage   *usage        `json:"usage,omitempty"`
}

type chunkChoice struct {
	Index        int        `json:"index"`
	Delta        chunkDelta `json:"delta"`
	FinishReason *string    `json:"finish_reason"`
}

type chunkDelta struct {
	Role      string     `json:"role,omitempty"`
	Content   string     `json:"content,omitempty"`
	ToolCalls []toolCall `json:"tool_calls,omitempty"`
}

type apiError struct {
	Error apiErrorBody `json:"error"`
}

type apiErrorBody struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

type modelList struct {
	Object string      `json:"object"`
	Data   []modelInfo `json:"data"`
}

type modelInfo struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

// estimateTokens approximates a token count (about four bytes a token) so
// usage figures are plausible and deterministic.
func estimateTokens(s string) int {
	if s == "" {
		return 0
	}
	return (len(s) + 3) / 4
}

// imageSize is the size of the image of a base64 data URL, or 0, 0.
func imageSize(url string) (int, int) {
	_, data, ok := strings.Cut(url, ";base64,")
	if !ok || !strings.HasPrefix(url, "data:image/") {
		return 0, 0
	}
	c, _, err := image.DecodeConfig(base64.NewDecoder(base64.StdEncoding, strings.NewReader(data)))
	if err != nil {
		return 0, 0
	}
	return c.Width, c.Height
}

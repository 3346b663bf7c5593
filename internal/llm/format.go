package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

// Response formats of a request that asks for JSON, best first
// (docs/design.md §3).
const (
	FormatJSONSchema = "json_schema" // response_format json_schema with the answer's schema
	FormatJSONObject = "json_object" // response_format json_object: any JSON object
	FormatPlain      = "plain"       // no response_format: the prompt alone asks for JSON
)

// JSONSchema describes the JSON answer a request asks for.
type JSONSchema struct {
	Name   string         // schema name sent to the API, e.g. "plan"
	Schema map[string]any // JSON Schema of the answer object
}

type jsonKey struct{}

// WithJSON returns a context under which Chat asks the endpoint for a JSON
// answer of schema s, in the best response format the endpoint accepts.
func WithJSON(ctx context.Context, s JSONSchema) context.Context {
	return context.WithValue(ctx, jsonKey{}, s)
}

func jsonFrom(ctx context.Context) (JSONSchema, bool) {
	s, ok := ctx.Value(jsonKey{}).(JSONSchema)
	return s, ok
}

// formatMemory remembers, per endpoint and model, the best response format
// the endpoint accepted. It lives in the process (a worker, a starter
// command) for its lifetime: a restart detects again, with at most two
// rejected requests per endpoint.
var formatMemory sync.Map // endpoint + " " + model → format

func (c *Client) formatKey() string { return c.cfg.Endpoint() + " " + c.cfg.Model }

// Format returns the response format a JSON request to this endpoint
// starts with: the remembered one, else FormatJSONSchema.
func (c *Client) Format() string {
	if f, ok := formatMemory.Load(c.formatKey()); ok {
		return f.(string)
	}
	return FormatJSONSchema
}

// ForgetFormats drops every remembered response format, so the next JSON
// request to each endpoint detects again.
func ForgetFormats() { formatMemory.Clear() }

// nextFormat is the format to try after f was refused.
func nextFormat(f string) string {
	switch f {
	case FormatJSONSchema:
		return FormatJSONObject
	case FormatJSONObject:
		return FormatPlain
	}
	return ""
}

// setFormat puts response format f for schema s into p.
func setFormat(p *openai.ChatCompletionNewParams, f string, s JSONSchema) {
	switch f {
	case FormatJSONSchema:
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: s.Name, Schema: s.Schema, Strict: openai.Bool(false)},
		}}
	case FormatJSONObject:
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONObject: &shared.ResponseFormatJSONObjectParam{}}
	default:
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{}
	}
}

// formatRefused reports whether err is an endpoint refusing the request's
// response_format: a 400 or 422 that is not about the prompt's length.
// Servers word this differently ("response_format is not supported",
// "Unknown parameter", a bare "Bad Request"), so the status decides; a
// request refused for another reason fails again in plain format and that
// error is returned.
func formatRefused(err error) bool {
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) {
		return false
	}
	if apiErr.StatusCode != http.StatusBadRequest && apiErr.StatusCode != http.StatusUnprocessableEntity {
		return false
	}
	return !contextTooLong(apiErr.Message) && !strings.Contains(strings.ToLower(apiErr.Message), "image")
}

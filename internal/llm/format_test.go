package llm

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

var testSchema = JSONSchema{Name: "plan", Schema: map[string]any{"type": "object", "required": []string{"status"}}}

// formatServer refuses the response_format types in refuse with 400 and
// answers every other request with a JSON object.
func formatServer(t *testing.T, refuse ...string) (Config, func() []recorded) {
	return newServer(t, false, func(w http.ResponseWriter, _ *http.Request, req map[string]any) {
		if rf, ok := req["response_format"].(map[string]any); ok {
			for _, r := range refuse {
				if rf["type"] == r {
					writeJSON(w, 400, apiError("response_format "+r+" is not supported", "invalid_request"))
					return
				}
			}
		}
		writeJSON(w, 200, completion(`{"status":"done","response":"ok"}`))
	})
}

func formatOf(r recorded) string {
	rf, ok := r.body["response_format"].(map[string]any)
	if !ok {
		return FormatPlain
	}
	return rf["type"].(string)
}

func TestJSONFormatDetectedOnceAndRemembered(t *testing.T) {
	for _, c := range []struct {
		refuse []string
		want   string
		first  []string // formats of the first call's requests
	}{
		{nil, FormatJSONSchema, []string{"json_schema"}},
		{[]string{"json_schema"}, FormatJSONObject, []string{"json_schema", "json_object"}},
		{[]string{"json_schema", "json_object"}, FormatPlain, []string{"json_schema", "json_object", "plain"}},
	} {
		t.Run(c.want, func(t *testing.T) {
			ForgetFormats()
			t.Cleanup(ForgetFormats)
			cfg, seen := formatServer(t, c.refuse...)
			cl := New(cfg)
			ctx := WithJSON(context.Background(), testSchema)
			for call := 0; call < 3; call++ {
				ans, err := cl.Chat(ctx, testMessages[:1])
				if err != nil {
					t.Fatal(err)
				}
				if ans.ResponseFormat != c.want || ans.PromptTokens != 120 {
					t.Fatalf("call %d answered in %q with %d prompt tokens, want %q", call, ans.ResponseFormat, ans.PromptTokens, c.want)
				}
			}
			var got []string
			for _, r := range seen() {
				got = append(got, formatOf(r))
			}
			want := append(append([]string(nil), c.first...), c.want, c.want)
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("requests went out as %v, want %v (detect once, then remember)", got, want)
			}
			if cl.Format() != c.want {
				t.Errorf("remembered %q", cl.Format())
			}
			// The schema travels with json_schema requests.
			if r := seen()[0]; formatOf(r) == FormatJSONSchema {
				js := r.body["response_format"].(map[string]any)["json_schema"].(map[string]any)
				if js["name"] != "plan" || js["schema"] == nil || js["strict"] != false {
					t.Errorf("json_schema sent as %v", js)
				}
			}
		})
	}
}

// A request that is not a JSON request never carries a response format,
// and a 400 that is not about the format is returned after the plain try.
func TestJSONFormatOnlyWhenAsked(t *testing.T) {
	ForgetFormats()
	t.Cleanup(ForgetFormats)
	cfg, seen := formatServer(t)
	if _, err := New(cfg).Chat(context.Background(), testMessages[:1]); err != nil {
		t.Fatal(err)
	}
	if _, ok := seen()[0].body["response_format"]; ok {
		t.Error("a plain request carried response_format")
	}
	cfg, seen = newServer(t, false, func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		writeJSON(w, 400, apiError("temperature must be at most 2", "invalid_request"))
	})
	_, err := New(cfg).Chat(WithJSON(context.Background(), testSchema), testMessages[:1])
	if err == nil || !strings.Contains(err.Error(), "temperature must be at most 2") || len(seen()) != 3 {
		t.Errorf("err = %v after %d requests, want the server's 400 after 3", err, len(seen()))
	}
	// A prompt-too-long 400 is not taken for a format refusal.
	cfg, seen = newServer(t, false, func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		writeJSON(w, 400, apiError("This model's maximum context length is 8192 tokens", "context_length_exceeded"))
	})
	if _, err := New(cfg).Chat(WithJSON(context.Background(), testSchema), testMessages[:1]); err == nil || len(seen()) != 1 {
		t.Errorf("context too long: err = %v after %d requests, want 1", err, len(seen()))
	}
}

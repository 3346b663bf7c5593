package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/modelserver"
)

// runModelsCheck runs `models check` with the model settings in env and
// returns its stdout and exit code.
func runModelsCheck(t *testing.T, env map[string]string, args ...string) (string, int) {
	t.Helper()
	t.Setenv("PHONEFLOW_CONFIG", "")
	for k, v := range env {
		t.Setenv(k, v)
	}
	cmd := newModelsCmd()
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs(append([]string{"check"}, args...))
	err := cmd.Execute()
	return out.String() + errOut.String(), exitCode(err)
}

func endpoints(url, plannerModel, executorModel, key string) map[string]string {
	return map[string]string{
		"PHONEFLOW_PLANNER_BASE_URL": url, "PHONEFLOW_PLANNER_MODEL": plannerModel, "PHONEFLOW_PLANNER_API_KEY": key,
		"PHONEFLOW_EXECUTOR_BASE_URL": url, "PHONEFLOW_EXECUTOR_MODEL": executorModel, "PHONEFLOW_EXECUTOR_API_KEY": key,
	}
}

func TestModelsCheckOfflineServerPasses(t *testing.T) {
	srv := httptest.NewServer(modelserver.New(modelserver.Config{}))
	defer srv.Close()
	for _, protocol := range []string{"phoneflow", "autoglm"} {
		env := endpoints(srv.URL+"/v1", "offline-planner", "offline-executor", "")
		env["PHONEFLOW_EXECUTOR_PROTOCOL"] = protocol
		out, code := runModelsCheck(t, env)
		if code != 0 || strings.Count(out, "\n  ok\n") != 2 {
			t.Fatalf("%s: exit %d\n%s", protocol, code, out)
		}
		for _, want := range []string{"response format json_schema", `planned ["Turn on Wi-Fi"]`, `do(action="Launch", app="Settings")`,
			"protocol " + protocol, "first token", "prompt +", `"offline-executor" among them`} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: output lacks %q:\n%s", protocol, want, out)
			}
		}
	}
}

func TestModelsCheckWrongKey(t *testing.T) {
	srv := httptest.NewServer(modelserver.New(modelserver.Config{APIKey: "right-key"}))
	defer srv.Close()
	out, code := runModelsCheck(t, endpoints(srv.URL+"/v1", "offline-planner", "offline-executor", "wrong-key"))
	if code != 1 || !strings.Contains(out, "FAIL (bad_key)") ||
		!strings.Contains(out, "fix: set planner.api_key (PLANNER_MODEL_API_KEY)") ||
		!strings.Contains(out, "fix: set executor.api_key (MODEL_API_KEY)") || strings.Contains(out, "wrong-key") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestModelsCheckUnknownModel(t *testing.T) {
	srv := httptest.NewServer(modelserver.New(modelserver.Config{}))
	defer srv.Close()
	out, code := runModelsCheck(t, endpoints(srv.URL+"/v1", "offline-planner", "qwen-vl-max", ""), "--role", "executor")
	if code != 1 || !strings.Contains(out, `FAIL (unknown_model): the endpoint does not serve model "qwen-vl-max"`) ||
		!strings.Contains(out, "fix: set executor.model (MODEL_NAME) to one the endpoint lists: offline-planner, offline-executor") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if strings.Contains(out, "planner:") {
		t.Errorf("--role executor checked the planner too:\n%s", out)
	}
}

// fakeEndpoint lists model and answers chat requests with answer, or with
// a 400 when the request has an image and noImages is set.
func fakeEndpoint(t *testing.T, model string, noImages bool, answer string) string {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"`+model+`","object":"model","created":1,"owned_by":"test"}]}`)
	})
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if noImages && bytes.Contains(body, []byte(`"image_url"`)) {
			w.WriteHeader(400)
			_, _ = io.WriteString(w, `{"error":{"message":"At most 0 image(s) may be provided in one request.","type":"BadRequestError","code":400}}`)
			return
		}
		content, _ := json.Marshal(answer)
		if bytes.Contains(body, []byte(`"stream":true`)) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"`+model+`","choices":[{"index":0,"delta":{"role":"assistant","content":`+string(content)+`},"finish_reason":null}]}`+"\n\n")
			_, _ = io.WriteString(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"`+model+`","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
			return
		}
		_, _ = io.WriteString(w, `{"id":"c","object":"chat.completion","created":1,"model":"`+model+`","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":`+string(content)+`}}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

func TestModelsCheckNoImageInput(t *testing.T) {
	url := fakeEndpoint(t, "text-only-7b", true, `<think>x</think><answer>do(action="Back")</answer>`)
	out, code := runModelsCheck(t, endpoints(url, "text-only-7b", "text-only-7b", ""), "--role", "executor")
	if code != 1 || !strings.Contains(out, "FAIL (no_image_input)") || !strings.Contains(out, "fix: set executor.model (MODEL_NAME) to a vision model") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestModelsCheckUnparseableAnswer(t *testing.T) {
	url := fakeEndpoint(t, "some-vl-model", false, "I think you should tap Settings.")
	out, code := runModelsCheck(t, endpoints(url, "some-vl-model", "some-vl-model", ""))
	if code != 1 || strings.Count(out, "FAIL (answer_not_understood)") != 2 ||
		!strings.Contains(out, `raw answer: "I think you should tap Settings."`) ||
		!strings.Contains(out, "<think>…</think><answer>do(action=…)</answer>") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestModelsCheckUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL + "/v1"
	srv.Close() // nothing listens there any more
	out, code := runModelsCheck(t, endpoints(url, "m", "m", ""), "--role", "planner")
	if code != 1 || !strings.Contains(out, "FAIL (unreachable)") || !strings.Contains(out, "planner.base_url (PLANNER_MODEL_BASE_URL)") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

// Each class of failure names its likely cause: an endpoint that answers
// but is no API points at the base URL, a 501 too; a 5xx at the server.
func TestModelsCheckNamesLikelyCause(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	for _, c := range []struct {
		name    string
		handler http.HandlerFunc
		url     string
		kind    string
		cause   string
	}{
		{name: "web page", kind: "not_an_openai_api", cause: "base URL is likely wrong",
			handler: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				_, _ = io.WriteString(w, "<html><body>welcome</body></html>")
			}},
		{name: "garbage json", kind: "not_an_openai_api", cause: "base URL is likely wrong",
			handler: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, "{not json at all")
			}},
		{name: "501", kind: "not_an_openai_api", cause: "base URL is likely wrong",
			handler: func(w http.ResponseWriter, _ *http.Request) {
				http.Error(w, "not implemented", http.StatusNotImplemented)
			}},
		{name: "500", kind: "server_error", cause: "its logs say why",
			handler: func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "boom", http.StatusInternalServerError) }},
		{name: "502", kind: "server_error", cause: "proxy or gateway",
			handler: func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "bad gateway", http.StatusBadGateway) }},
		{name: "503", kind: "server_error", cause: "still loading",
			handler: func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "loading", http.StatusServiceUnavailable) }},
		{name: "429", kind: "rate_limited", cause: "rate limit or quota",
			handler: func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "slow down", http.StatusTooManyRequests) }},
		{name: "401", kind: "bad_key", cause: "API key",
			handler: func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "no", http.StatusUnauthorized) }},
		{name: "refused", url: closedURL + "/v1", kind: "unreachable", cause: "not running"},
	} {
		t.Run(c.name, func(t *testing.T) {
			url := c.url
			if c.handler != nil {
				srv := httptest.NewServer(c.handler)
				defer srv.Close()
				url = srv.URL + "/v1"
			}
			out, code := runModelsCheck(t, endpoints(url, "m", "m", ""), "--role", "planner")
			if code != 1 {
				t.Fatalf("exit %d, want 1:\n%s", code, out)
			}
			if !strings.Contains(out, "FAIL ("+c.kind+")") || !strings.Contains(out, "likely cause: ") || !strings.Contains(out, c.cause) {
				t.Fatalf("output lacks kind %s and cause %q:\n%s", c.kind, c.cause, out)
			}
		})
	}
}

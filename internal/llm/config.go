package llm

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"
)

// Config holds the settings of one model endpoint (planner or executor).
type Config struct {
	BaseURL          string        // OpenAI-compatible API root, e.g. http://127.0.0.1:8000/v1
	APIKey           string        // sent as a bearer token; never logged
	Model            string        // model id, e.g. autoglm-phone-9b
	Temperature      float64       // always sent (0 is a valid setting)
	TopP             float64       // sent when > 0
	FrequencyPenalty float64       // sent when != 0
	MaxTokens        int           // sent when > 0
	Timeout          time.Duration // whole-request limit including the streamed body; 0 = none
	Stream           bool          // stream the answer (needed for TTFT and ThinkEnd)
	// KeySetting names where the user sets APIKey, for error messages
	// ("planner.api_key (PLANNER_MODEL_API_KEY)"); empty = a generic hint.
	KeySetting string
}

// ExecutorDefaults returns the reference executor settings (docs/design.md §3)
// for the given endpoint and model.
func ExecutorDefaults(baseURL, apiKey, model string) Config {
	return Config{
		BaseURL: baseURL, APIKey: apiKey, Model: model,
		Temperature: 0, TopP: 0.85, FrequencyPenalty: 0.2, MaxTokens: 3000,
		Timeout: 120 * time.Second, Stream: true,
	}
}

// Validate reports every problem with the settings in one error.
func (c Config) Validate() error {
	var errs []error
	if c.BaseURL == "" {
		errs = append(errs, errors.New("llm: base URL is empty: set it to the API root, e.g. http://127.0.0.1:8000/v1"))
	} else if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("llm: base URL %q is not an http(s) URL: write it like http://127.0.0.1:8000/v1", redactURL(c.BaseURL)))
	}
	if strings.TrimSpace(c.Model) == "" {
		errs = append(errs, errors.New("llm: model is empty: set the model id the endpoint serves (GET <base URL>/models lists them)"))
	}
	if c.Temperature < 0 || c.Temperature > 2 {
		errs = append(errs, fmt.Errorf("llm: temperature %g is outside 0..2", c.Temperature))
	}
	if c.TopP < 0 || c.TopP > 1 {
		errs = append(errs, fmt.Errorf("llm: top_p %g is outside 0..1 (0 leaves it to the server)", c.TopP))
	}
	if c.FrequencyPenalty < -2 || c.FrequencyPenalty > 2 {
		errs = append(errs, fmt.Errorf("llm: frequency penalty %g is outside -2..2", c.FrequencyPenalty))
	}
	if c.MaxTokens < 0 {
		errs = append(errs, fmt.Errorf("llm: max tokens %d is negative (0 leaves it to the server)", c.MaxTokens))
	}
	if c.Timeout < 0 {
		errs = append(errs, fmt.Errorf("llm: timeout %v is negative (0 means no limit)", c.Timeout))
	}
	return errors.Join(errs...)
}

// Endpoint returns the chat completions URL the config points at, without
// user info or query.
func (c Config) Endpoint() string {
	return strings.TrimSuffix(redactURL(c.BaseURL), "/") + "/chat/completions"
}

// String describes the config with the API key redacted.
func (c Config) String() string {
	return fmt.Sprintf("llm.Config{BaseURL:%s Model:%s APIKey:%s Temperature:%g TopP:%g FrequencyPenalty:%g MaxTokens:%d Timeout:%v Stream:%t}",
		redactURL(c.BaseURL), c.Model, maskKey(c.APIKey), c.Temperature, c.TopP, c.FrequencyPenalty, c.MaxTokens, c.Timeout, c.Stream)
}

// GoString keeps %#v from printing the key.
func (c Config) GoString() string { return c.String() }

// LogValue keeps slog from printing the key.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("base_url", redactURL(c.BaseURL)),
		slog.String("model", c.Model),
		slog.String("api_key", maskKey(c.APIKey)),
		slog.Bool("stream", c.Stream),
		slog.Duration("timeout", c.Timeout),
	)
}

// maskKey says whether a key is set without showing any of it.
func maskKey(k string) string {
	if k == "" {
		return "(none)"
	}
	return "(redacted)"
}

// redactURL drops user info and query from a URL so neither can leak a
// credential into messages.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparseable URL)"
	}
	u.User = nil
	u.RawQuery = ""
	u.Fragment = ""
	return u.String()
}

// Package llm is phoneflow's client for OpenAI-compatible chat completion
// endpoints, used for both the planner and the executor model.
//
// It wraps github.com/openai/openai-go/v3 with the SDK's own retries turned
// off, so the caller (Temporal's retry policy) is the one place retries are
// decided. Every failure comes back as an *Error that says whether a retry
// can help, how long the server asked to wait, which endpoint failed and what
// to fix. Answers carry timings (time to first token, time to the end of the
// model's thinking, total) and token usage. The API key never appears in an
// error, a log line or a String result.
package llm

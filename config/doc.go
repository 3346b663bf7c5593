// Package config is the one place phoneflow reads its settings from.
//
// Load merges four sources in precedence order — command-line flags, the
// environment, a YAML file (phoneflow.yaml in the working directory or in
// ~/.config/phoneflow/, or the file named by --config) and built-in
// defaults — into a typed Config, and reports for every key which source
// its value came from. viper is used only inside this package to read the
// file; the rest of phoneflow receives a Config and never reads environment
// variables or viper directly.
//
// Keys are dotted lower-case paths such as "limits.max_steps". The
// environment name of a key is PHONEFLOW_ followed by the upper-cased key
// with dots replaced by underscores (PHONEFLOW_LIMITS_MAX_STEPS); a few
// names used by earlier phone-agent setups (MODEL_BASE_URL, STUCK_THRESHOLD,
// …) are accepted as aliases with lower precedence than the PHONEFLOW_ name.
//
// Secrets (API keys, encryption keys, the codec token) are never printed:
// Redacted masks them, and errors about them do not quote their value.
package config

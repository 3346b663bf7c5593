package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/modelcheck"
)

func init() { rootCmd.AddCommand(newModelsCmd()) }

func newModelsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "models",
		Short: "Check the configured model endpoints",
	}
	var role string
	check := &cobra.Command{
		Use:   "check",
		Short: "Check that the planner and executor endpoints work as configured",
		Long: `check tries each configured model endpoint the way a worker will use it:
it reaches the endpoint, lists its models when the API offers that, sends one
tiny real request (the executor gets a rendered simulator screenshot in the
configured executor.protocol) and checks that the answer parses. It prints the
latency (time to first token, total) and the tokens of that request, and for
each failure what to fix: the key setting to correct, the model names the
endpoint offers, a vision model for an endpoint without image input, or the
raw answer that was not understood.

Exit status: 0 when every checked endpoint passes, 1 when one fails, 2 for a
configuration value that is not allowed.`,
		Example: `  starter models check
  starter models check --role executor
  MODEL_BASE_URL=http://localhost:8000/v1 MODEL_NAME=autoglm-phone-9b starter models check`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if role != "all" && role != modelcheck.RolePlanner && role != modelcheck.RoleExecutor {
				return usageError{fmt.Errorf("--role %q: use planner, executor or all", role)}
			}
			cfg, src, err := config.Load(config.LoadOptions{Flags: cmd.Flags()})
			if err != nil {
				return usageError{err}
			}
			targets := modelTargets(cfg, src)
			if targets[1].Exec.SystemPrompt, err = app.SystemPrompt(cfg); err != nil {
				return usageError{err}
			}
			if _, err = app.PlannerPrompt(cfg); err != nil {
				return usageError{err}
			}
			failed := 0
			for _, t := range targets {
				if role != "all" && role != t.Role {
					continue
				}
				r := modelcheck.Check(cmd.Context(), t)
				modelcheck.Write(cmd.OutOrStdout(), r)
				if !r.OK {
					failed++
				}
			}
			if failed > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "models check: %d endpoint(s) failed\n", failed)
				return exitError{exitFailure}
			}
			return nil
		},
	}
	check.Flags().StringVar(&role, "role", "all", "which endpoint to check: planner, executor or all")
	config.BindNamedFlags(check.Flags(), config.ModelFlags)
	cmd.AddCommand(check)
	return cmd
}

// modelTargets are the configured endpoints, as the worker builds them;
// the executor's carries which profile, language and verifier were chosen
// and why (src says where each value came from).
func modelTargets(cfg config.Config, src config.Sources) []modelcheck.Target {
	pc := app.ModelConfig(cfg.Planner.Endpoint)
	pc.KeySetting = "planner.api_key (PLANNER_MODEL_API_KEY)"
	ec := app.ModelConfig(cfg.Executor.Endpoint)
	ec.KeySetting = "executor.api_key (MODEL_API_KEY)"
	return []modelcheck.Target{
		{Role: modelcheck.RolePlanner, LLM: pc, KeySetting: pc.KeySetting,
			ModelSetting: "planner.model (PLANNER_MODEL_NAME)", URLSetting: "planner.base_url (PLANNER_MODEL_BASE_URL)"},
		{Role: modelcheck.RoleExecutor, LLM: ec, KeySetting: ec.KeySetting,
			ModelSetting: "executor.model (MODEL_NAME)", URLSetting: "executor.base_url (MODEL_BASE_URL)", Exec: app.ExecConfig(cfg),
			Profile: profileLines(cfg, src)},
	}
}

// profileLines says what the executor profile chose and why.
func profileLines(cfg config.Config, src config.Sources) []string {
	why := func(key string) string {
		if s := src[key]; s != "" {
			return " (" + s + ")"
		}
		return ""
	}
	e := app.ExecConfig(cfg)
	size := "full size"
	if e.MaxPixels > 0 {
		size = fmt.Sprintf("at most %d pixels", e.MaxPixels)
	}
	prompt := "phoneflow's own"
	if cfg.Executor.SystemPromptFile != "" {
		prompt = "from " + cfg.Executor.SystemPromptFile
	}
	verifier := "none: a finish no deterministic check covers is not shown done"
	if m, ok := cfg.VerifierModel(); ok {
		verifier = fmt.Sprintf("%s endpoint %s, model %q", cfg.EffectiveVerifier(), m.BaseURL, m.Model)
		if cfg.EffectiveVerifier() == config.VerifyByPlanner {
			verifier += ", text only (element list, no screenshot)"
		}
	}
	return []string{
		"protocol " + cfg.Executor.EffectiveProtocol() + why("executor.protocol"),
		"language " + cfg.Executor.EffectiveLang() + why("executor.lang") + ", system prompt " + prompt,
		fmt.Sprintf("screenshot %s, %s%s; ui_elements %t%s", e.Format, size, why("screenshot.format"), e.IncludeElements, why("executor.ui_elements")),
		"verifier " + verifier + why("verifier.use"),
	}
}

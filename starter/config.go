package main

import (
	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
)

func init() { rootCmd.AddCommand(newConfigCmd()) }

func newConfigCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Print the effective configuration and where each value came from",
		Long: `config prints every configuration key with its effective value and its source
(default, file:<path>, env:<NAME> or flag:--<name>), in precedence order
flags > environment > file > defaults. Secrets print as "****" when set.

A value that is not allowed is reported with the key, the value and what is
allowed; the command then exits with status 2.`,
		Example: `  starter config
  starter config --config ./phoneflow.yaml
  MODEL_NAME=autoglm-phone-9b starter config --temporal-address 10.0.0.2:7233`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, src, err := config.Load(config.LoadOptions{Flags: cmd.Flags()})
			if src != nil {
				if perr := config.Print(cmd.OutOrStdout(), cfg, src); perr != nil {
					return perr
				}
			}
			if err != nil {
				return usageError{err}
			}
			return nil
		},
	}
	config.BindFlags(cmd.Flags())
	return cmd
}

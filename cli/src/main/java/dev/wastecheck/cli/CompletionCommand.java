package dev.wastecheck.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code wastecheck completion bash|zsh}: the completion script picocli generates from the commands
 * themselves, so it never falls behind an option. One script serves both shells: under zsh it loads
 * {@code bashcompinit} and registers the same functions. The build writes the same script to
 * {@code cli/target/wastecheck_completion}.
 */
@Command(
        name = "completion",
        sortOptions = false,
        description = {"Prints the script that completes wastecheck's commands, options and files in bash or zsh.", ""},
        footer = {
            "",
            "Examples:",
            "  source <(wastecheck completion bash)      # in ~/.bashrc",
            "  source <(wastecheck completion zsh)       # in ~/.zshrc",
            "  wastecheck completion bash > ~/.local/share/bash-completion/completions/wastecheck"
        })
final class CompletionCommand implements Callable<Integer> {
    enum Shell {
        bash,
        zsh
    }

    @Parameters(paramLabel = "SHELL", description = "bash or zsh.")
    Shell shell;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        out.print(AutoComplete.bash(spec.root().name(), spec.root().commandLine()));
        out.flush();
        return Main.EXIT_OK;
    }
}

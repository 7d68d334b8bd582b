package dev.wastecheck.cli;

import picocli.CommandLine.Command;

/**
 * The {@code wastecheck} command with {@code analyze} alone, for a run of {@code analyze}: picocli
 * builds a command's model from its annotations by reflection, every subcommand's with it, and
 * the whole command line ({@link Main}: seven commands and the types their options name) took
 * the main thread's time before the analysis could start (docs/benchmarks.md, issue 32). What
 * {@code analyze} prints for {@code --help}, {@code --version} or a bad argument is the same from
 * either root ({@code MainRootsTest}).
 */
@Command(subcommands = AnalyzeCommand.class)
final class AnalyzeRoot extends RootCommand {}

#!/usr/bin/env node
import { Command } from 'commander';

// The command set (query, sessions, units, audit export, …) is built on @lemma/sdk in its own issue;
// this entry point exists so the workspace, its bin and its build are in place.
const program = new Command('lemma')
  .description('The Lemma command-line client (built on @lemma/sdk).')
  .version('0.1.0');

program.parse();

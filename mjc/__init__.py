"""The `mjc` command: compile variants, play, score and run scenarios."""

"""Running a program's moves as processes: contained, charged all their CPU, stopped and cleaned up whatever they do."""

-- Schema version 3: player stats read player_bests, and daily streaks the
-- partial index results_daily_first, so this index only cost writes (and
-- misled the planner away from the covering daily index).
DROP INDEX results_user;

-- capabot schema, version 40: nothing changes on SQLite (issue 42 §4, docs/load.md "PostgreSQL a
-- move, stop 110").
--
-- PostgreSQL's migration 40 checks a game's values through domain types instead of the nine CHECK
-- constraints of `games`, which PostgreSQL prepared again at every statement that wrote a row of
-- the table, a move's included. SQLite already checks on an UPDATE only the constraints that name a
-- column the statement sets, so this side only keeps the two backends' migrations numbered alike.
SELECT 1;

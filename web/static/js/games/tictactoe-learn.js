// Tic-tac-toe's rules page and lessons (the toy third game), in the form
// js/learn.js reads (docs/adding-a-game.md, "The lesson module"). Every
// lesson's position and answer are checked by the rules engine
// (POST /api/play) when it is played.

const at = (pos, sq) => pos.board[pos.grid.sqIndex(sq)];

export const sides = ['tt.side.0', 'tt.side.1'];

export const pitch = 'tt.pitch';

export const rules = [
  {
    title: 'tt.r.aim.title',
    body: ['tt.r.aim.1', 'tt.r.aim.2'],
    diagrams: [{ position: 'xx./oo./... x', move: 'c3', caption: 'tt.r.aim.d' }],
  },
  { title: 'tt.r.end.title', body: ['tt.r.end.1'] },
];

export const variants = { misere: 'tt.var.misere' };

export const options = { goal: 'tt.opt.goal' };

/** The rule options and their values in words, for the new-game form. */
export const optionWords = {
  goal: { label: 'tt.on.goal', values: { 'three-wins': 'tt.ov.goal.three-wins', 'three-loses': 'tt.ov.goal.three-loses' } },
};

export const lessons = [
  {
    id: 'win',
    title: 'tt.l.win.title',
    task: 'tt.l.win.task',
    hint: 'tt.l.win.hint',
    position: 'xx./oo./... x',
    goal: (move, after, outcome) => outcome === 'win',
    right: 'tt.l.win.right',
    wrong: 'tt.l.win.wrong',
    refute: { a1: 'c2', b1: 'c2', c1: 'c2' },
  },
  {
    id: 'block',
    title: 'tt.l.block.title',
    task: 'tt.l.block.task',
    hint: 'tt.l.block.hint',
    position: 'x../oo./x.. x',
    goal: (move, after) => at(after, 'c2') === 'x',
    right: 'tt.l.block.right',
    wrong: 'tt.l.block.wrong',
    refute: { b3: 'c2', c3: 'c2', b1: 'c2', c1: 'c2' },
  },
];

export const texts = {
  "en": {
    "tt.side.0": "X",
    "tt.side.1": "O",
    "tt.pitch": "Noughts and crosses on a board of three by three: the first to put three marks in a row wins.",
    "tt.r.aim.title": "The aim",
    "tt.r.aim.1": "Two players, X and O, take turns putting a mark of their own on an empty square. X begins.",
    "tt.r.aim.2": "Whoever makes a row of three of their marks, across, up or diagonal, wins at once.",
    "tt.r.aim.d": "X puts a mark on c3 and completes the top rank.",
    "tt.r.end.title": "A full board",
    "tt.r.end.1": "When the nine squares are full and nobody has three in a row, the game is drawn.",
    "tt.var.misere": "Misère: whoever makes three in a row loses.",
    "tt.opt.goal": "Whether three in a row wins, or loses (misère).",
    "tt.on.goal": "Three in a row",
    "tt.ov.goal.three-wins": "wins",
    "tt.ov.goal.three-loses": "loses",
    "tt.l.win.title": "Three in a row",
    "tt.l.win.task": "X to move: win at once.",
    "tt.l.win.hint": "Look at the top rank.",
    "tt.l.win.right": "Well done: c3 completes a3–c3.",
    "tt.l.win.wrong": "Not that one: O makes its own row next.",
    "tt.l.block.title": "Block the row",
    "tt.l.block.task": "X to move: O threatens a row of three. Stop it.",
    "tt.l.block.hint": "Which square would complete O's row?",
    "tt.l.block.right": "Well done: c2 stops a2–c2.",
    "tt.l.block.wrong": "O still completes its row."
  },
  "es": {
    "tt.side.0": "X",
    "tt.side.1": "O",
    "tt.pitch": "Tres en raya en un tablero de tres por tres: gana quien primero pone tres marcas en línea.",
    "tt.r.aim.title": "El objetivo",
    "tt.r.aim.1": "Dos jugadores, X y O, ponen por turnos una marca suya en una casilla vacía. Empieza X.",
    "tt.r.aim.2": "Quien hace una línea de tres marcas suyas, horizontal, vertical o diagonal, gana en el acto.",
    "tt.r.aim.d": "X pone una marca en c3 y completa la fila de arriba.",
    "tt.r.end.title": "El tablero lleno",
    "tt.r.end.1": "Cuando las nueve casillas están llenas y nadie tiene tres en línea, la partida es tablas.",
    "tt.var.misere": "Misère: quien hace tres en línea pierde.",
    "tt.opt.goal": "Si tres en línea gana o pierde (misère).",
    "tt.on.goal": "Tres en línea",
    "tt.ov.goal.three-wins": "gana",
    "tt.ov.goal.three-loses": "pierde",
    "tt.l.win.title": "Tres en línea",
    "tt.l.win.task": "Juega X: gana ya.",
    "tt.l.win.hint": "Mira la fila de arriba.",
    "tt.l.win.right": "Muy bien: c3 completa a3–c3.",
    "tt.l.win.wrong": "Esa no: O hace su línea a continuación.",
    "tt.l.block.title": "Corta la línea",
    "tt.l.block.task": "Juega X: O amenaza una línea de tres. Impídelo.",
    "tt.l.block.hint": "¿Qué casilla completaría la línea de O?",
    "tt.l.block.right": "Muy bien: c2 corta a2–c2.",
    "tt.l.block.wrong": "O completa su línea igualmente."
  },
  "it": {
    "tt.side.0": "X",
    "tt.side.1": "O",
    "tt.pitch": "Tris su una scacchiera di tre per tre: vince chi per primo mette tre segni in fila.",
    "tt.r.aim.title": "Lo scopo",
    "tt.r.aim.1": "Due giocatori, X e O, mettono a turno un proprio segno su una casella vuota. Comincia X.",
    "tt.r.aim.2": "Chi fa una fila di tre propri segni, in orizzontale, in verticale o in diagonale, vince subito.",
    "tt.r.aim.d": "X mette un segno su c3 e completa la traversa in alto.",
    "tt.r.end.title": "La scacchiera piena",
    "tt.r.end.1": "Quando le nove caselle sono piene e nessuno ha tre in fila, la partita è patta.",
    "tt.var.misere": "Misère: chi fa tre in fila perde.",
    "tt.opt.goal": "Se tre in fila vince o perde (misère).",
    "tt.on.goal": "Tre in fila",
    "tt.ov.goal.three-wins": "vince",
    "tt.ov.goal.three-loses": "perde",
    "tt.l.win.title": "Tre in fila",
    "tt.l.win.task": "Muove X: vinci subito.",
    "tt.l.win.hint": "Guarda la traversa in alto.",
    "tt.l.win.right": "Bravo: c3 completa a3–c3.",
    "tt.l.win.wrong": "Non quella: O fa la sua fila subito dopo.",
    "tt.l.block.title": "Blocca la fila",
    "tt.l.block.task": "Muove X: O minaccia una fila di tre. Fermalo.",
    "tt.l.block.hint": "Quale casella completerebbe la fila di O?",
    "tt.l.block.right": "Bravo: c2 ferma a2–c2.",
    "tt.l.block.wrong": "O completa comunque la sua fila."
  },
  "eo": {
    "tt.side.0": "X",
    "tt.side.1": "O",
    "tt.pitch": "Tri en vico sur tabulo de tri je tri: venkas kiu unua metas tri signojn en vico.",
    "tt.r.aim.title": "La celo",
    "tt.r.aim.1": "Du ludantoj, X kaj O, laŭvice metas propran signon sur malplenan kampon. X komencas.",
    "tt.r.aim.2": "Kiu faras vicon de tri propraj signoj, horizontale, vertikale aŭ diagonale, tuj venkas.",
    "tt.r.aim.d": "X metas signon sur c3 kaj kompletigas la supran vicon.",
    "tt.r.end.title": "Plena tabulo",
    "tt.r.end.1": "Kiam la naŭ kampoj estas plenaj kaj neniu havas tri en vico, la ludo estas remiza.",
    "tt.var.misere": "Mizero: kiu faras tri en vico malvenkas.",
    "tt.opt.goal": "Ĉu tri en vico venkas aŭ malvenkas (mizero).",
    "tt.on.goal": "Tri en vico",
    "tt.ov.goal.three-wins": "venkas",
    "tt.ov.goal.three-loses": "malvenkas",
    "tt.l.win.title": "Tri en vico",
    "tt.l.win.task": "X movas: venku tuj.",
    "tt.l.win.hint": "Rigardu la supran vicon.",
    "tt.l.win.right": "Bone: c3 kompletigas a3–c3.",
    "tt.l.win.wrong": "Ne tiu: O faras sian vicon poste.",
    "tt.l.block.title": "Baru la vicon",
    "tt.l.block.task": "X movas: O minacas vicon de tri. Haltigu ĝin.",
    "tt.l.block.hint": "Kiu kampo kompletigus la vicon de O?",
    "tt.l.block.right": "Bone: c2 baras a2–c2.",
    "tt.l.block.wrong": "O tamen kompletigas sian vicon."
  }
};

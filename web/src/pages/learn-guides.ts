// "How to play" guides, one per game, in plain language. A section may show a diagram: the starting
// position of one of the game's lessons (`lessons/<game>.json`), asked from the server and drawn by the
// game's own board renderer, so every diagram is a real position the engine built.

export interface GuideSection {
  heading: string;
  paragraphs: string[];
  /** A lesson whose starting position illustrates the section, and what the picture shows. */
  diagram?: { lesson: number; caption: string };
}

export interface Guide {
  summary: string;
  sections: GuideSection[];
}

export const GUIDES: Record<string, Guide> = {
  kyo: {
    summary: 'Two players, Gold and Red, move pawns that ride on stacks of Mana and Shield chips across a 10x10 board. Capture the enemy King, or take away all its Mana.',
    sections: [
      { heading: 'The goal', paragraphs: ['You win when the enemy King is captured, or when the enemy has no Mana chip left anywhere on the board. A player who cannot move at the start of a turn loses.'],
        diagram: { lesson: 2, caption: 'Your Heavy (E7) is next to the red King (E8): stepping onto it wins.' } },
      { heading: 'Stacks, chips and pawns', paragraphs: [
        'Every square holds a stack. Chips are Dark Mana (purple, D), Light Mana (yellow, L) and Shields (grey and notched, S), drawn as a column beside the pawn, bottom chip lowest; a pawn may stand on top: King, Queen, Heavy, Tower and Light Pawn, drawn as the chess king, queen, a broad pawn, rook and small pawn. Gold plays the gold round tokens and gold-edged chips, Red the red octagons and red-edged chips; in the notation capital letters are Gold, small letters Red.',
        'A pawn carries the unbroken run of your own chips directly under it when it steps (up to five; a Light Pawn carries none). Chips may also move on their own, without a pawn.'],
        diagram: { lesson: 3, caption: 'A Heavy on two Light Mana chips (C3): it can carry both.' } },
      { heading: 'One turn', paragraphs: [
        'A step goes to one of the eight neighbouring squares: an empty one, a pawnless stack topped by Mana, or an enemy pawn (a capture). Only a Tower may step onto Shields, and it removes enemy Shields it lands on.',
        'Most steps end the turn. But a step that leaves Dark Mana on top of the square it left (for a straight step) or Light Mana (for a diagonal step) is a Mana move: the same pawn may step again. Keep the same direction while you move over the same colour. End the turn when you like.'],
        diagram: { lesson: 4, caption: 'Dark Mana in a line: the Heavy on D3 can chain three Mana moves up to D6.' } },
      { heading: 'Light Pawns, Shields and the end', paragraphs: [
        'A Light Pawn captures only when your pieces and pawnless Mana around the target outnumber the enemy\'s around your pawn. A pawn on Shields may deploy one onto a neighbouring square to block the way.',
        'When your turn ends, enemy Mana directly under the chips your pawn carried onto its square is destroyed. A position repeated three times, or 100 turns without a capture or destroyed Mana, is a draw.'],
        diagram: { lesson: 7, caption: 'The Light Pawn on D3 is supported by your Mana on C4 and E4.' } },
      { heading: 'Options', paragraphs: [
        'Light Pawn rows: trench (rows 3 and 6, the default), open field (rows 1 and 8) or deadlock (rows 4 and 5).',
        'Extra pieces: two Knights (they may leap like a chess knight) and two Cannons (they capture two or three squares away over exactly one piece) for each side.'] },
    ],
  },
  'cyvasse-trump': {
    summary: 'Two armies on a board of 91 hexes. Each side secretly sets up its army, then the sides take turns moving and attacking. Capture the enemy King.',
    sections: [
      { heading: 'The goal', paragraphs: ['Capture the enemy King. There is no check: a King left where it can be taken is taken, and the game is over.'],
        diagram: { lesson: 8, caption: 'The Heavy Horse on f4 can reach the red King on d4 with its first leg.' } },
      { heading: 'Setting up', paragraphs: ['Each player places 19 pieces (including two Mountains) anywhere on their own five home rows, hidden from the other player. When both are ready the armies are revealed; the side whose King stands nearer the middle row moves first (a coin decides a tie). The page offers ready-made setups you can edit by swapping pieces.'] },
      { heading: 'The pieces', paragraphs: [
        'Each unit has a Movement and a Strength: Rabble 3/1, Spearman 2/2, Elephant 3/4, Light Horse 3+2/2, Heavy Horse 2+2/3, Crossbowman 1/2, Catapult 2/3, Trebuchet 0/1, Dragon (flies)/5, King 2/2. Mountains never move and block movement and shots.',
        'An attack wins when the defender does not trump the attacker and the attacker trumps it or is at least as strong. Only winning attacks are allowed. Spearmen trump Light Horses, Crossbowmen trump Elephants, Catapults and Trebuchets trump the Dragon.'],
        diagram: { lesson: 3, caption: 'The Crossbowman (h5) trumps Elephants: it may shoot either one.' } },
      { heading: 'One turn', paragraphs: [
        'Move one unit along a path of empty hexes up to its Movement, ending on an empty hex or attacking an enemy with the last jump. Horses move in two legs and may attack in each. The Dragon flies in a straight line over anything.',
        'Crossbowmen, Catapults and Trebuchets may instead shoot an enemy within their range (2, 3 and 3) without moving; they defend at Strength 1.'],
        diagram: { lesson: 6, caption: 'The Dragon (k4) flies over its own units to the red King on d2.' } },
      { heading: 'The end and the option', paragraphs: ['Capturing the King wins. A side that cannot move passes; if neither can, or after 150 turns without a capture, the game is drawn. Option: a horse\'s second leg can be made compulsory.'] },
    ],
  },
  'cyvasse-caird': {
    summary: 'A chess-like Cyvasse on an 8x8 board (10x10 or a hexagon as options), with a hidden setup, a circle of who-takes-whom and, in the Expert version, terrain. Checkmate the enemy King.',
    sections: [
      { heading: 'The goal', paragraphs: ['Checkmate: attack the enemy King so that it has no move to escape. You may never leave your own King where it could be taken. A player with no move who is not in check is stalemated: a draw.'],
        diagram: { lesson: 7, caption: 'White to move: d5-d8 checkmates the King on a8.' } },
      { heading: 'Setting up', paragraphs: ['Each player secretly places 26 pieces (King, Dragon, 2 Elephants, 2 Trebuchets, 2 Crossbowmen, 2 Heavy Horses, 2 Light Horses, 4 Spears, 4 Rabble and 6 Mountains) on their four home rows. Every non-Mountain square must stay connected to the front row.'] },
      { heading: 'Moving and capturing', paragraphs: [
        'Pieces move in straight lines up to their number, never through other pieces: King 1, Dragon 4 (flying over Mountains), Elephant 3 straight, Trebuchet 3 straight, Crossbowman 2 diagonal, Heavy Horse 3 diagonal, Light Horse 2 diagonal, Spear 1 in any direction, Rabble 1 straight.',
        'Who takes whom: infantry takes cavalry, cavalry takes ranged pieces, ranged pieces take infantry; the Elephant and the Trebuchet take every troop; the King takes and is taken by anything. Mountains are never taken.'],
        diagram: { lesson: 5, caption: 'The Dragon on f2 flies over both Mountains to the Crossbowman on f6.' } },
      { heading: 'Expert terrain', paragraphs: ['In the Expert version the board has Hills and Forest (cost 2 to enter), Water (3, only 1 for Elephants) and a Fortress for each King. A piece stops where the cost uses up its remaining movement. Trebuchets and Crossbowmen shoot; a piece next to its own King fights better.'],
        diagram: { lesson: 9, caption: 'Expert: Water (blue) on d3, d4 and c3; the Elephant wades through it.' } },
      { heading: 'Hex Cyvasse and the options', paragraphs: ['Hex Cyvasse uses a hexagon of 91 cells; there the Dragon flies up to 5 cells along the lines through the sides of its cell. Options add a reserve Dragon, super Trebuchets, the Dragon\'s fire, castle storming, wildfire and sea movement.'],
        diagram: { lesson: 10, caption: 'Hex Cyvasse: the Dragon on i4 and the black King five cells away.' } },
    ],
  },
  territories: {
    summary: 'A two-player dice game on a grid of playing cards. Build Towns where the cards meet, collect resources when their numbers are rolled, and be the first to 15 points.',
    sections: [
      { heading: 'The goal', paragraphs: ['Reach 15 points first. A Town is worth 1 point; a Fort, Barracks, Temple or Palace 2; the Capital 3.'],
        diagram: { lesson: 8, caption: 'Gold has 14 points: one more Town wins.' } },
      { heading: 'The grid', paragraphs: [
        'Twenty cards are dealt face up as a grid of 5 by 4. Each card has a number (2 to 12, never 7) and a suit, which is its resource: Hearts, Spades, Clubs or Diamonds.',
        'Buildings stand on the corners where cards meet and touch up to four cards. To start, each player places two free Towns.'],
        diagram: { lesson: 1, caption: 'The dealt grid before the first Town.' } },
      { heading: 'One turn', paragraphs: [
        'The turn starts with a roll of two dice. Every building touching a card of that number collects its resource, for both players. On a 7 nobody collects: whoever holds more than 7 cards discards down to 7, and the roller draws a territory card.',
        'Then build as often as you can pay: a Town costs one card of each suit; Fort, Barracks, Temple and Palace cost four of one suit and replace a Town; the Capital costs two of each and replaces one of those. You may trade four of a suit with the bank for one card, or trade with your opponent. Then end the turn.'],
        diagram: { lesson: 2, caption: 'Gold (Town on 1,1) can build a Town touching the 8 of Spades.' } },
      { heading: 'Abilities and the end', paragraphs: [
        'Bigger buildings open abilities, once per turn each: Survey (swap a grid card), Expand (add a card to the grid), Raid (destroy an enemy Town) and Convert (take over an enemy building). They cost resources and a die roll decides.',
        'A player who ends two turns in a row without any building loses. Options: the turn limit, how many offers per turn, and whether territory cards count towards the 7-card limit.'] },
    ],
  },
  syba: {
    summary: 'A game for 2 to 6 players of cities, armies, heroes and research on a map of areas. Own 15 cities, be the last player owning a city, or cast the World Spell.',
    sections: [
      { heading: 'The goal', paragraphs: ['You win by owning 15 cities, by being the last player who owns a city, or by buying the World Spell. Some heroes let their owner share a victory.'],
        diagram: { lesson: 13, caption: 'Three units of yours in Sae, the opponent\'s last city.' } },
      { heading: 'Getting started', paragraphs: ['Each player chooses a race (it only names and colours your side) and then a starting city, which gives units, resources and a special action usable once per game.'],
        diagram: { lesson: 3, caption: 'The map after the setup: your Soldiers in Stavensport.' } },
      { heading: 'Resources and buying', paragraphs: [
        'At the start of your turn your cities pay income: Production, Food and Research (at most 40 of each). Production buys units: Soldier 2, Knight 5, Monster 8 (Power 1, 2, 3) and heroes for 10. Research buys buildings, army upgrades and spells. Food rests tired units or gives extra moves and Power.'] },
      { heading: 'Moving and fighting', paragraphs: [
        'Each unit may move once per turn to a neighbouring area; moving again, attacking or helping Exhausts it. Units in one area may move together as an army.',
        'To attack an army or a city, Exhaust your units in Reach of it (the same area, more with heroes and upgrades). The attack wins when its Power is at least the defence: the defending units\' Power plus the City Strength. Other players may help either side, and may intercept an army that enters an area.'],
        diagram: { lesson: 7, caption: 'Kaul, a free city next to Stavensport.' } },
      { heading: 'Trades and promises', paragraphs: ['On your turn you may propose trades of resources, units and cities. A note of promises may go with a trade; nobody enforces it.'] },
      { heading: 'Options', paragraphs: ['The number of players (2 to 6), whether all your units are rested at the start of your turn, a limit of rounds after which the most cities win, and the number of trade proposals per turn.'] },
    ],
  },
};

// Registers every board renderer.
import { registerRenderer } from './index';
import { trumpRenderer } from './trump';

registerRenderer('cyvasse-trump', trumpRenderer);
import { territoriesRenderer } from './territories';

registerRenderer('territories', territoriesRenderer);
import { kyoRenderer } from './kyo';

registerRenderer('kyo', kyoRenderer);
import { cairdRenderer } from './caird';

registerRenderer('cyvasse-caird', cairdRenderer);
import { sybaRenderer } from './syba';

registerRenderer('syba', sybaRenderer);
